// Memory for a snapshot while it is written and read: big, short-lived buffers (the snapshot itself
// and the copies of the tables it is written from) taken straight from the system and given
// straight back when freed. Through malloc they stayed in the arena of whichever thread asked for a
// dump, and glibc does not give an arena's top back: a 256 MB JVM grew by tens of MB per dump and
// never shrank. Small requests still go to malloc (a page each would waste memory).
#pragma once
#include <cstddef>
#include <cstdlib>

// Platform code: whole pages, nullptr on failure.
void* mapPages(size_t bytes);
void unmapPages(void* pages, size_t bytes);

template <typename T>
struct PageAllocator {
    using value_type = T;
    static constexpr size_t kMinMappedBytes = 256 * 1024;

    PageAllocator() = default;
    template <typename U>
    PageAllocator(const PageAllocator<U>&) {}

    T* allocate(size_t n) {
        size_t bytes = n * sizeof(T);
        void* p = bytes >= kMinMappedBytes ? mapPages(bytes) : std::malloc(bytes);
        if (p == nullptr) {
            std::abort();  // what operator new does without exceptions: the system is out of memory
        }
        return static_cast<T*>(p);
    }

    void deallocate(T* p, size_t n) {
        size_t bytes = n * sizeof(T);
        if (bytes >= kMinMappedBytes) {
            unmapPages(p, bytes);
        } else {
            std::free(p);
        }
    }

    template <typename U>
    bool operator==(const PageAllocator<U>&) const { return true; }
    template <typename U>
    bool operator!=(const PageAllocator<U>&) const { return false; }
};
