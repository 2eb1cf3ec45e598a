#include "sampler.h"

#include <sched.h>

#include <cstdlib>

#include "memoryRelease.h"
#include "monotonicClock.h"
#include "poissonWeights.h"
#include "samplingThinner.h"
#include "snapshotWriter.h"

Sampler::Sampler(jvmtiEnv* jvmti, const Limits& limits)
    : jvmti_(jvmti), limits_(limits), methods_(limits.maxMethods), store_(limits) {}

StartResult Sampler::start(int64_t intervalBytes, int64_t jvmIntervalBytes, int64_t durationNanos, const Limits& limits,
                           const LiveSettings& live, std::string& error) {
    std::lock_guard<std::mutex> guard(control_);
    if (sampling_.load()) {
        return StartResult::kAlreadyRunning;
    }
    if (!holdsCapability_) {
        jvmtiCapabilities caps{};
        caps.can_generate_sampled_object_alloc_events = 1;
        jvmtiError err = jvmti_->AddCapabilities(&caps);
        if (err == JVMTI_ERROR_NOT_AVAILABLE) {
            return StartResult::kCapabilityUnavailable;
        }
        if (err != JVMTI_ERROR_NONE) {
            error = "AddCapabilities failed with JVMTI error " + std::to_string(err);
            return StartResult::kJvmtiError;
        }
        holdsCapability_ = true;
    }
    if (jvmIntervalBytes <= 0 || jvmIntervalBytes > intervalBytes) {
        jvmIntervalBytes = intervalBytes;
    }
    jvmtiError err = jvmti_->SetHeapSamplingInterval(static_cast<jint>(jvmIntervalBytes));
    if (err != JVMTI_ERROR_NONE) {
        error = "SetHeapSamplingInterval failed with JVMTI error " + std::to_string(err);
        disableEvents();
        return StartResult::kJvmtiError;
    }
    limits_ = limits;
    methods_.limit(limits.maxMethods);
    uint64_t generation = generation_.load() + 1;
    store_.startCapture(generation, limits);
    if (live.budget > 0) {
        live_.enable(live);
        // Harmless if the GC-events capability was refused: the Java GC count is used then.
        jvmti_->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, nullptr);
    } else {
        live_.disable();
    }
    interval_.store(intervalBytes);
    jvmInterval_.store(jvmIntervalBytes);
    depth_.store(limits.maxStackDepth);
    deadlineNanos_.store(monotonicNanos() + durationNanos);
    generation_.store(generation);
    sampling_.store(true, std::memory_order_release);
    err = jvmti_->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, nullptr);
    if (err != JVMTI_ERROR_NONE) {
        error = "enabling SampledObjectAlloc failed with JVMTI error " + std::to_string(err);
        sampling_.store(false);
        disableEvents();
        return StartResult::kJvmtiError;
    }
    return StartResult::kOk;
}

void Sampler::disableEvents() {
    jvmti_->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, nullptr);
    if (holdsCapability_) {
        // Give the capability back so another profiler (or a later capture) can have it.
        jvmtiCapabilities caps{};
        caps.can_generate_sampled_object_alloc_events = 1;
        jvmti_->RelinquishCapabilities(&caps);
        holdsCapability_ = false;
    }
}

void Sampler::stop() {
    std::lock_guard<std::mutex> guard(control_);
    sampling_.store(false);
    disableEvents();
    awaitSamplesInFlight();
    live_.disable();  // objects tracked so far stay tracked until clear()
}

// A thread that passed onSample's sampling_ test just before stop() still records its sample (its
// stack walk takes microseconds), so a snapshot read after stop() could change, and one that clear()
// raced could leave a live entry naming a site of the store it just emptied. sampling_ is stored and
// inFlight_ read sequentially consistent, and onSample does the opposite: either the thread sees
// sampling off, or this sees it in flight. Bounded: a thread suspended inside a callback (a debugger)
// must not hang stop(); after a second the old behaviour stands (the store's generation check).
void Sampler::awaitSamplesInFlight() {
    int64_t giveUpAt = monotonicNanos() + 1000000000;
    while (inFlight_.load() != 0 && monotonicNanos() < giveUpAt) {
        sched_yield();
    }
}

void Sampler::clear(JNIEnv* jni) {
    std::lock_guard<std::mutex> guard(control_);
    sampling_.store(false);
    disableEvents();
    awaitSamplesInFlight();
    uint64_t generation = generation_.load() + 1;
    generation_.store(generation);
    live_.clear(jni);
    jvmti_->SetEventNotificationMode(JVMTI_DISABLE, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, nullptr);
    buffers_.closeAll();
    store_.clear(generation);
    methods_.clear();
    returnFreePagesToSystem();
}

void Sampler::snapshot(JNIEnv* jni, ByteWriter& out) {
    SnapshotWriter w(out);
    w.header(generation_.load(), static_cast<uint64_t>(interval_.load()), static_cast<uint32_t>(depth_.load()));
    // Live entries first: the site table written next then holds every site they name.
    ByteWriter live;
    live_.write(jni, live, monotonicNanos());
    store_.write(out, methods_);
    w.append(live);
}

void Sampler::tableSizes(int64_t out[kTableSizes]) {
    AllocationStore::Sizes store = store_.sizes();
    MethodCache::Sizes methods = methods_.sizes();
    out[0] = static_cast<int64_t>(store.classes);
    out[1] = static_cast<int64_t>(store.classBytes);
    out[2] = static_cast<int64_t>(methods.methods);
    out[3] = static_cast<int64_t>(methods.nameBytes);
    out[4] = static_cast<int64_t>(methods.lineEntries);
    out[5] = static_cast<int64_t>(store.frames);
    out[6] = static_cast<int64_t>(store.stacks);
    out[7] = static_cast<int64_t>(store.stackFrames);
    out[8] = static_cast<int64_t>(store.sites);
    out[9] = static_cast<int64_t>(live_.weakRefsHeld());
}

int64_t Sampler::admit(jlong size) {
    if (!sampling_.load(std::memory_order_acquire)) {
        return 0;
    }
    // Each thread keeps to one shard, chosen round robin at its first event.
    static std::atomic<uint32_t> nextShard{0};
    static thread_local uint32_t shard = nextShard.fetch_add(1, std::memory_order_relaxed) % kEventShards;
    events_[shard].count.fetch_add(1, std::memory_order_relaxed);
    int64_t governing = samplingThinner::governingJvmInterval(generation_.load(std::memory_order_relaxed),
                                                              jvmInterval_.load(std::memory_order_relaxed));
    if (governing <= 0) {
        return 0;
    }
    int64_t interval = interval_.load(std::memory_order_relaxed);
    if (interval <= governing) {
        return governing;
    }
    double keep = samplingThinner::keepProbability(size, governing, interval);
    return keep >= 1.0 || samplingThinner::uniform() < keep ? interval : 0;
}

bool Sampler::setInterval(int64_t intervalBytes, int64_t jvmIntervalBytes) {
    std::lock_guard<std::mutex> guard(control_);
    if (!sampling_.load() || intervalBytes <= 0) {
        return false;
    }
    if (jvmIntervalBytes <= 0 || jvmIntervalBytes > intervalBytes) {
        jvmIntervalBytes = intervalBytes;
    }
    if (jvmIntervalBytes != jvmInterval_.load()) {
        if (jvmti_->SetHeapSamplingInterval(static_cast<jint>(jvmIntervalBytes)) != JVMTI_ERROR_NONE) {
            return false;
        }
        // A thread whose next sample point the JVM draws between the call above and this store
        // records the old interval for it: one sample per thread per change, at most.
        jvmInterval_.store(jvmIntervalBytes);
    }
    interval_.store(intervalBytes);
    return true;
}

namespace {
// A kept sample's stack walk takes 2-40 us (deeper and rarer: longer). The callback's clock is the wall
// clock (a thread CPU clock is a system call, itself 1-3 us when samples are rare), so a thread the
// kernel switched out meanwhile would charge the sample its whole time slice (milliseconds): on a busy
// two-core target that made the mean cost read 1.5 times what perf attributed to the callback, 1.3-1.7
// times with this cap. Longer than this is not the sample.
constexpr int64_t kMaxSampleNanos = 100000;

// Counts a call in flight from its entry to its return (awaitSamplesInFlight).
struct InFlight {
    std::atomic<int32_t>& count;
    explicit InFlight(std::atomic<int32_t>& c) : count(c) { count.fetch_add(1); }
    ~InFlight() { count.fetch_sub(1); }
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;
};
}  // namespace

void Sampler::onSample(JNIEnv* jni, jobject object, jclass klass, jlong size, int64_t weightInterval) {
    InFlight inFlight(inFlight_);
    if (!sampling_.load()) {
        return;
    }
    uint64_t generation = generation_.load(std::memory_order_acquire);
    int64_t now = monotonicNanos();
    if (now > deadlineNanos_.load(std::memory_order_relaxed)) {
        store_.countAfterDeadline();  // the time box holds even if Java never calls stop()
        return;
    }
    int32_t depth = depth_.load(std::memory_order_relaxed);
    // One frame more than asked tells whether the stack was cut.
    jvmtiFrameInfo* frames = static_cast<jvmtiFrameInfo*>(std::malloc(sizeof(jvmtiFrameInfo) * (depth + 1)));
    jint count = 0;
    bool haveStack = frames != nullptr && jvmti_->GetStackTrace(nullptr, 0, depth + 1, frames, &count) == JVMTI_ERROR_NONE;
    bool truncated = haveStack && count > depth;
    if (truncated) {
        count = depth;
    }
    if (haveStack) {
        // Names only for stacks that can still be kept: under class churn (proxies, generated code)
        // the method table otherwise filled with the methods of stacks counted under "[other stacks]".
        if (!store_.stacksFull()) methods_.resolveAll(jvmti_, frames, count);
    } else {
        store_.countStackError(generation);
    }
    char* signature = nullptr;
    if (jvmti_->GetClassSignature(klass, &signature, nullptr) != JVMTI_ERROR_NONE) {
        signature = nullptr;
    }
    PoissonWeight w = poissonWeight(size, weightInterval);
    uint32_t site =
        store_.record(generation, haveStack ? frames : nullptr, count, truncated, signature, size, w.objects, w.bytes);
    if (site != kNone) {
        live_.admit(jni, object, site, size, w.objects, w.bytes, now);
    }
    if (signature != nullptr) {
        jvmti_->Deallocate(reinterpret_cast<unsigned char*>(signature));
    }
    std::free(frames);
    // One more clock read (about 20 ns of the several microseconds a kept sample takes) tells the
    // session what a sample costs here: it depends on the stack's depth (HotSpot's walk takes about
    // 150 ns a frame), so the sample-rate target alone does not bound the cost.
    int64_t took = monotonicNanos() - now;
    sampleNanos_.fetch_add(took < kMaxSampleNanos ? took : kMaxSampleNanos, std::memory_order_relaxed);
}
