// Wakes heaptap-live when a collection ends, so that thread sleeps instead of polling (it looked at
// the GC counter 100 times a second: half of its CPU was the polling itself, and each wake-up after a
// GC paid HotSpot's nmethod entry barriers again).
//
// The JVMTI GarbageCollectionFinish callback runs while the VM is stopped and may neither use JNI nor
// block, so post() only bumps a counter and makes one futex wake call, which takes no lock and never
// waits. A JVMTI raw monitor, the documented alternative, could be held by the waiting thread across a
// safepoint check while the GC callback tries to enter it; nothing here can make a GC wait for heaptap.
#pragma once
#include <atomic>
#include <cstdint>

class CollectionSignal {
  public:
    // Counts one signal and wakes the waiter: a collection's end (GC callback), a collection a GC bean
    // reported, or a request to look again (stopping). Safe in a GC callback.
    void post();
    // Returns once the count differs from `seen` or after timeoutMillis, whichever is first: the count
    // then. A post between the caller's read of `seen` and the wait is not missed.
    uint32_t await(uint32_t seen, int64_t timeoutMillis);
    uint32_t posts() const { return posts_.load(std::memory_order_acquire); }

  private:
    std::atomic<uint32_t> posts_{0};
};
