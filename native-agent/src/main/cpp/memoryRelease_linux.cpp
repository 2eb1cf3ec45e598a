// Platform code of memoryRelease.h: glibc keeps freed pages until asked to give them back.
#include "memoryRelease.h"

#include <malloc.h>

void returnFreePagesToSystem() {
    malloc_trim(0);  // every arena: samples are recorded on many threads, each may have its own
}
