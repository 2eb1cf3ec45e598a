#include "liveTable.h"

#include <algorithm>

#include "memoryRelease.h"
#include "snapshotWriter.h"
#include <unordered_set>

uint64_t LiveTable::gcEpoch() const {
    uint64_t finishes = jvmtiGcFinishes_.load(std::memory_order_acquire);
    return finishes > 0 ? jvmtiBase_.load(std::memory_order_acquire) + finishes : javaGcCount_.load(std::memory_order_acquire);
}

void LiveTable::enable(uint32_t budget, int64_t largeThreshold, uint32_t largeBudget) {
    std::lock_guard<std::mutex> guard(lock_);
    if (jvmtiGcFinishes_.load() == 0) {
        jvmtiBase_.store(javaGcCount_.load());
    }
    budget_ = budget < 2 ? 2 : budget;
    largeThreshold_ = largeThreshold > 0 ? largeThreshold : 0;
    largeBudget_ = largeBudget < 2 ? 2 : largeBudget;
    entries_.reserve(budget_);
    while (entries_.size() - largeCount_ > budget_) {
        thinLocked(false);  // a smaller budget than last time: thin down to it
    }
    while (largeCount_ > largeBudget_) {
        thinLocked(true);
    }
    enabled_.store(true, std::memory_order_release);
}

double LiveTable::uniformLocked() {
    // xorshift64*: fast, good enough to flip fair coins; guarded by lock_.
    rng_ ^= rng_ >> 12;
    rng_ ^= rng_ << 25;
    rng_ ^= rng_ >> 27;
    return static_cast<double>((rng_ * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

void LiveTable::thinLocked(bool large) {
    // In the main stratum, young entries go first when they are at least half of it; old ones
    // are spared that round and keep their weight. The large stratum is thinned uniformly.
    uint64_t epoch = gcEpoch();
    bool youngOnly = false;
    if (!large) {
        size_t young = 0;
        for (const LiveEntry& e : entries_) {
            if (!e.large && e.gcEpoch >= epoch) young++;
        }
        youngOnly = young * 2 >= entries_.size() - largeCount_;
    }
    size_t kept = 0;
    for (size_t i = 0; i < entries_.size(); i++) {
        LiveEntry e = entries_[i];
        bool eligible = e.large == large && !(youngOnly && e.gcEpoch < epoch);
        if (!eligible) {
            entries_[kept++] = e;
        } else if (uniformLocked() < 0.5) {
            e.objects *= 2;
            e.bytes *= 2;
            entries_[kept++] = e;
        } else {
            pendingDelete_.push_back(e.ref);
            counters_.thinnedEntries++;
            if (e.large) largeCount_--;
        }
    }
    entries_.resize(kept);
    (large ? keepLarge_ : keep_) /= 2;
    counters_.thinnings++;
}

void LiveTable::admit(JNIEnv* jni, jobject object, uint32_t site, int64_t size, double objects, double bytes,
                      int64_t nowNanos) {
    if (!enabled()) {
        return;
    }
    flushPendingIfLarge(jni);
    double keepAtDecision;
    bool large;
    {
        std::lock_guard<std::mutex> guard(lock_);
        large = largeThreshold_ > 0 && size >= largeThreshold_;
        double& keep = large ? keepLarge_ : keep_;
        keepAtDecision = keep;
        if (keep < 1.0 && uniformLocked() >= keep) {
            counters_.skipped++;
            return;
        }
    }
    jweak ref = jni->NewWeakGlobalRef(object);  // JNI, outside the lock
    if (ref == nullptr) {
        std::lock_guard<std::mutex> guard(lock_);
        counters_.refFailures++;
        return;
    }
    weakRefs_++;
    std::unique_lock<std::mutex> guard(lock_);
    if (!enabled()) {
        // clear() (or stop) ran while this sample was in flight: it must not leave a reference behind.
        guard.unlock();
        jni->DeleteWeakGlobalRef(ref);
        weakRefs_--;
        return;
    }
    if (large) {
        while (largeCount_ >= largeBudget_) {
            thinLocked(true);
        }
    } else {
        while (entries_.size() - largeCount_ >= budget_) {
            thinLocked(false);
        }
    }
    double keep = large ? keepLarge_ : keep_;
    // Thinning since the decision lowered p: keep this sample with the conditional probability.
    if (keep < keepAtDecision && uniformLocked() >= keep / keepAtDecision) {
        pendingDelete_.push_back(ref);
        counters_.skipped++;
        return;
    }
    // Its probability of being here: keep if the coin above was flipped, keepAtDecision if p rose
    // meanwhile (maintenance raises it); either way the smaller of the two.
    double p = std::min(keep, keepAtDecision);
    entries_.push_back(LiveEntry{ref, site, size, objects / p, bytes / p, nowNanos, gcEpoch(), large});
    if (large) {
        largeCount_++;
    }
    counters_.admitted++;
}

void LiveTable::flushPendingIfLarge(JNIEnv* jni) {
    {
        std::lock_guard<std::mutex> guard(lock_);
        if (pendingDelete_.size() <= budget_) {
            return;
        }
    }
    // Thinned references pile up faster than the maintenance thread runs under heavy garbage.
    // Delete them here rather than refuse samples (refusing would bias the estimate low). Only if
    // nobody is maintaining right now: try_lock never blocks an allocating thread.
    std::unique_lock<std::mutex> maintenance(maintenance_, std::try_to_lock);
    if (!maintenance.owns_lock()) {
        return;
    }
    std::vector<jweak> toDelete;
    {
        std::lock_guard<std::mutex> guard(lock_);
        toDelete.swap(pendingDelete_);
    }
    for (jweak ref : toDelete) {
        jni->DeleteWeakGlobalRef(ref);
    }
    weakRefs_ -= toDelete.size();
}

void LiveTable::maintain(JNIEnv* jni) {
    std::lock_guard<std::mutex> maintenance(maintenance_);
    maintainLocked(jni);
}

void LiveTable::maintainLocked(JNIEnv* jni) {
    std::vector<jweak> toDelete;
    std::vector<jweak> refs;
    {
        std::lock_guard<std::mutex> guard(lock_);
        toDelete.swap(pendingDelete_);
        refs.reserve(entries_.size());
        for (const LiveEntry& e : entries_) refs.push_back(e.ref);
    }
    std::unordered_set<jweak> dead;
    for (jweak ref : refs) {
        if (jni->IsSameObject(ref, nullptr)) {
            dead.insert(ref);
        }
    }
    {
        std::lock_guard<std::mutex> guard(lock_);
        if (!dead.empty()) {
            // Entries may have moved (thinning compacts), so match by reference, not position.
            // A dead entry thinned meanwhile is already in pendingDelete_ and is not counted twice.
            auto isDead = [&](const LiveEntry& e) { return dead.count(e.ref) != 0; };
            for (const LiveEntry& e : entries_) {
                if (isDead(e)) {
                    toDelete.push_back(e.ref);
                    counters_.died++;
                    if (e.large) largeCount_--;
                }
            }
            entries_.erase(std::remove_if(entries_.begin(), entries_.end(), isDead), entries_.end());
        }
        // Room again: let new samples in with a higher probability (still weighted 1/p).
        while (keep_ < 1.0 && (entries_.size() - largeCount_) * 4 <= budget_) {
            keep_ = std::min(1.0, keep_ * 2);
        }
        while (keepLarge_ < 1.0 && largeCount_ * 4 <= largeBudget_) {
            keepLarge_ = std::min(1.0, keepLarge_ * 2);
        }
    }
    for (jweak ref : toDelete) {
        jni->DeleteWeakGlobalRef(ref);
    }
    weakRefs_ -= toDelete.size();
}

void LiveTable::write(JNIEnv* jni, ByteWriter& out, int64_t nowNanos) {
    // nowNanos goes out first: it lets the reader relate ages to its own clock (both monotonic).
    std::lock_guard<std::mutex> maintenance(maintenance_);
    maintainLocked(jni);
    std::vector<LiveEntry, PageAllocator<LiveEntry>> entries;  // pages of its own, given back after the snapshot
    LiveCounters counters;
    double keep;
    uint32_t budget;
    {
        std::lock_guard<std::mutex> guard(lock_);
        entries = entries_;
        counters = counters_;
        keep = keep_;
        budget = budget_;
    }
    uint64_t epoch = gcEpoch();
    SnapshotWriter w(out);
    w.live({nowNanos, enabled(), budget, keep, counters.admitted, counters.skipped, counters.thinnings, counters.thinnedEntries,
            counters.died, counters.refFailures, weakRefs_.load(), epoch, static_cast<uint32_t>(entries.size())});
    for (const LiveEntry& e : entries) {
        w.liveEntry({e.site, static_cast<uint64_t>(e.size), e.objects, e.bytes, static_cast<uint64_t>(nowNanos - e.allocNanos),
                     epoch >= e.gcEpoch ? epoch - e.gcEpoch : 0, e.large});
    }
}

int LiveTable::strongRefs(JNIEnv* jni, const std::vector<uint32_t>& sites, int max, jobject* out) {
    // maintenance_ keeps every copied reference from being deleted while it is turned strong.
    std::lock_guard<std::mutex> maintenance(maintenance_);
    std::vector<std::pair<int64_t, jweak>> candidates;
    {
        std::lock_guard<std::mutex> guard(lock_);
        for (const LiveEntry& e : entries_) {
            if (std::binary_search(sites.begin(), sites.end(), e.site)) {
                candidates.emplace_back(e.allocNanos, e.ref);
            }
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const std::pair<int64_t, jweak>& a, const std::pair<int64_t, jweak>& b) { return a.first < b.first; });
    int made = 0;
    for (size_t i = 0; i < candidates.size() && made < max; i++) {
        jobject strong = jni->NewLocalRef(candidates[i].second);
        if (strong != nullptr) {
            out[made++] = strong;
        }
    }
    return made;
}

void LiveTable::clear(JNIEnv* jni) {
    std::lock_guard<std::mutex> maintenance(maintenance_);
    std::vector<jweak> toDelete;
    {
        std::lock_guard<std::mutex> guard(lock_);
        enabled_.store(false, std::memory_order_release);
        toDelete.swap(pendingDelete_);
        for (const LiveEntry& e : entries_) toDelete.push_back(e.ref);
        releaseMemory(entries_);
        keep_ = 1.0;
        keepLarge_ = 1.0;
        largeCount_ = 0;
        counters_ = LiveCounters();
    }
    for (jweak ref : toDelete) {
        jni->DeleteWeakGlobalRef(ref);
    }
    weakRefs_ -= toDelete.size();
}

uint64_t LiveTable::memoryBytes() {
    std::lock_guard<std::mutex> guard(lock_);
    return entries_.capacity() * sizeof(LiveEntry) + pendingDelete_.capacity() * sizeof(jweak);
}
