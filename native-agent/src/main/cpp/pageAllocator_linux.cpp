// Platform code of pageAllocator.h: anonymous private mappings, returned with munmap.
#include "pageAllocator.h"

#include <sys/mman.h>

void* mapPages(size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

void unmapPages(void* pages, size_t bytes) {
    munmap(pages, bytes);
}
