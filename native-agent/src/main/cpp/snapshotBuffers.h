// Snapshots held in native memory while a client reads them in chunks. A dump used to be one Java
// byte[] of the whole snapshot, plus everything decoded from it, on the application's heap: a
// capture of 65k stacks ran a 96 MB application out of heap. Now the snapshot stays here, and Java
// copies out bounded chunks (to decode in the target, or to send to the CLI, which decodes and
// encodes on its own heap).
//
// A fixed number of slots bounds the native memory; a handle names a slot and its use, so a stale
// or forged handle reads nothing. One mutex; the only JNI work done under it is the region copy
// into a Java array, which never calls back into Java.
#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

#include "byteWriter.h"

class SnapshotBuffers {
  public:
    static constexpr int kSlots = 4;

    // Keeps the bytes; returns a handle (>= 0), or -1 when every slot is taken.
    int64_t open(Bytes&& bytes);
    // Size of the snapshot, or -1 for an unknown handle.
    int64_t size(int64_t handle);
    // Copies up to len bytes from offset into out through copy(out, bytes, n); returns n, or -1.
    template <typename Copy>
    int32_t read(int64_t handle, int64_t offset, int32_t len, Copy copy);
    void close(int64_t handle);
    void closeAll();
    uint64_t memoryBytes();

  private:
    struct Slot {
        uint64_t use = 0;  // odd while open; part of the handle
        Bytes bytes;
    };
    Slot* slotOf(int64_t handle);

    std::mutex lock_;
    Slot slots_[kSlots];
};

template <typename Copy>
int32_t SnapshotBuffers::read(int64_t handle, int64_t offset, int32_t len, Copy copy) {
    std::lock_guard<std::mutex> guard(lock_);
    Slot* slot = slotOf(handle);
    if (slot == nullptr || offset < 0 || len < 0 || static_cast<uint64_t>(offset) > slot->bytes.size()) {
        return -1;
    }
    uint64_t left = slot->bytes.size() - static_cast<uint64_t>(offset);
    int32_t n = static_cast<int32_t>(left < static_cast<uint64_t>(len) ? left : static_cast<uint64_t>(len));
    copy(slot->bytes.data() + offset, n);  // a JNI region copy: no call back into the JVM, no blocking
    return n;
}
