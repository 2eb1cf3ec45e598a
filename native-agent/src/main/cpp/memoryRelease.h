// Giving memory back. reset must leave the agent's native memory near where it was before the
// first capture: clearing a container keeps its capacity (assigning {} to a vector or a hash map
// clears it and keeps every byte), and malloc keeps freed pages for the next allocation. So
// containers are swapped with empty ones, and after a reset the allocator is asked to return free
// pages to the system.
#pragma once

// Frees a container's memory, not only its elements.
template <typename Container>
void releaseMemory(Container& c) {
    Container().swap(c);
}

// Returns the allocator's free pages to the operating system (platform code).
void returnFreePagesToSystem();

