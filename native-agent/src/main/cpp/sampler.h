// The capture session on the native side: owns the heap-sampling capability while a capture
// runs, turns SampledObjectAlloc events into weighted samples, and enforces the time box itself,
// so sampling stops at the deadline even if no Java thread of heaptap ever runs again.
#pragma once
#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "allocationStore.h"
#include "limits.h"
#include "liveTable.h"
#include "methodCache.h"
#include "snapshotBuffers.h"

enum class StartResult : int32_t {
    kOk = 0,
    kCapabilityUnavailable = 1,  // another agent holds can_generate_sampled_object_alloc_events
    kAlreadyRunning = 2,
    kJvmtiError = 3,
};

// classes, class-name bytes, methods, method-name bytes, line entries, frames, stacks, stack
// frames, sites, weak references (tracked objects plus those waiting to be deleted): TableSizes.java, in this order.
constexpr int kTableSizes = 10;

class Sampler {
  public:
    Sampler(jvmtiEnv* jvmti, const Limits& limits);

    // live.budget 0: no live tracking for this capture (objects tracked before stay tracked).
    // intervalBytes is the user's; the JVM samples at jvmIntervalBytes (<= intervalBytes) and
    // admit() thins its samples down to intervalBytes (samplingThinner.h).
    StartResult start(int64_t intervalBytes, int64_t jvmIntervalBytes, int64_t durationNanos, const Limits& limits,
                      const LiveSettings& live, std::string& error);
    // Returns once no sample is being recorded: whatever is read after it no longer changes.
    void stop();
    // Changes the interval of the running capture (the session's sample-rate target): the agent's
    // at once, the JVM's for each thread from its next sample on (samplingThinner.h). False when
    // no capture runs or the JVM refused the interval.
    bool setInterval(int64_t intervalBytes, int64_t jvmIntervalBytes);
    void clear(JNIEnv* jni);                      // forget everything, delete every weak reference
    // The current or last capture, every counter as it stands, plus the live set now.
    void snapshot(JNIEnv* jni, ByteWriter& out);
    LiveTable& live() { return live_; }
    SnapshotBuffers& buffers() { return buffers_; }
    // Table sizes a dump's Java heap cost is estimated from, before any decoding.
    void tableSizes(int64_t out[kTableSizes]);
    bool sampling() const { return sampling_.load(std::memory_order_acquire); }
    uint64_t samples() { return store_.samples(); }
    // Time the callback spent on kept samples since the agent loaded (never reset): what heaptap's
    // sampling costs the application's threads, beside the JVM's own part of each event.
    int64_t sampleNanos() const { return sampleNanos_.load(std::memory_order_relaxed); }
    // The JVM's sampling events so far (never reset), thinned-away ones included: on JDK 11-24 each
    // costs its thread about 500 ns whether or not it is kept, so the session prices them. Counted,
    // not estimated from bytes: an object larger than the interval is one event, not several.
    uint64_t jvmEvents() const {
        uint64_t sum = 0;
        for (const EventShard& shard : events_) sum += shard.count.load(std::memory_order_relaxed);
        return sum;
    }
    uint64_t memoryBytes() {
        return store_.memoryBytes() + methods_.memoryBytes() + live_.memoryBytes() + buffers_.memoryBytes() + sizeof(Sampler);
    }

    // The cheap first test of every JVMTI sample: 0 drops it (no stack walk, no lock); otherwise the
    // interval its Poisson weight is computed with, handed to onSample.
    int64_t admit(jlong size);
    void onSample(JNIEnv* jni, jobject object, jclass klass, jlong size, int64_t weightInterval);

  private:
    void disableEvents();
    void awaitSamplesInFlight();

    jvmtiEnv* const jvmti_;
    std::mutex control_;  // serialises start / stop / clear
    std::atomic<bool> sampling_{false};
    std::atomic<int32_t> inFlight_{0};  // onSample calls between their entry and their last write
    std::atomic<int64_t> sampleNanos_{0};
    // The event count, spread over cache lines: every JVM event bumps one, and allocating threads on
    // one shared counter would contend at millions of events a second.
    struct alignas(64) EventShard {
        std::atomic<uint64_t> count{0};
    };
    static constexpr size_t kEventShards = 16;
    EventShard events_[kEventShards];
    std::atomic<int64_t> deadlineNanos_{0};
    std::atomic<int64_t> interval_{512 * 1024};
    std::atomic<int64_t> jvmInterval_{512 * 1024};
    std::atomic<int32_t> depth_{64};
    std::atomic<uint64_t> generation_{0};
    bool holdsCapability_ = false;
    Limits limits_;
    MethodCache methods_;
    AllocationStore store_;
    LiveTable live_;
    SnapshotBuffers buffers_;
};
