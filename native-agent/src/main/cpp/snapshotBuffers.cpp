#include "snapshotBuffers.h"

#include "memoryRelease.h"

// handle = use << 8 | slot index; use is odd while the slot is open and grows with each open.
SnapshotBuffers::Slot* SnapshotBuffers::slotOf(int64_t handle) {
    if (handle < 0) {
        return nullptr;
    }
    uint64_t index = static_cast<uint64_t>(handle) & 0xFF;
    uint64_t use = static_cast<uint64_t>(handle) >> 8;
    if (index >= kSlots || slots_[index].use != use || (use & 1) == 0) {
        return nullptr;
    }
    return &slots_[index];
}

int64_t SnapshotBuffers::open(Bytes&& bytes) {
    std::lock_guard<std::mutex> guard(lock_);
    for (int i = 0; i < kSlots; i++) {
        if ((slots_[i].use & 1) == 0) {
            slots_[i].use++;
            slots_[i].bytes = std::move(bytes);
            return static_cast<int64_t>((slots_[i].use << 8) | static_cast<uint64_t>(i));
        }
    }
    return -1;
}

int64_t SnapshotBuffers::size(int64_t handle) {
    std::lock_guard<std::mutex> guard(lock_);
    Slot* slot = slotOf(handle);
    return slot == nullptr ? -1 : static_cast<int64_t>(slot->bytes.size());
}

void SnapshotBuffers::close(int64_t handle) {
    Bytes freed;
    {
        std::lock_guard<std::mutex> guard(lock_);
        Slot* slot = slotOf(handle);
        if (slot == nullptr) {
            return;
        }
        slot->use++;
        freed.swap(slot->bytes);
    }
    releaseMemory(freed);  // its own pages: back to the system at once
}

void SnapshotBuffers::closeAll() {
    for (int i = 0; i < kSlots; i++) {
        int64_t handle;
        {
            std::lock_guard<std::mutex> guard(lock_);
            if ((slots_[i].use & 1) == 0) {
                continue;
            }
            handle = static_cast<int64_t>((slots_[i].use << 8) | static_cast<uint64_t>(i));
        }
        close(handle);
    }
}

uint64_t SnapshotBuffers::memoryBytes() {
    std::lock_guard<std::mutex> guard(lock_);
    uint64_t bytes = 0;
    for (const Slot& s : slots_) bytes += s.bytes.capacity();
    return bytes;
}
