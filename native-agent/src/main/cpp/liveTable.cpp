#include "liveTable.h"

#include <algorithm>

#include "memoryRelease.h"
#include "monotonicClock.h"
#include "snapshotWriter.h"

uint64_t LiveTable::gcEpoch() const {
    uint64_t finishes = jvmtiGcFinishes_.load(std::memory_order_acquire);
    return finishes > 0 ? jvmtiBase_.load(std::memory_order_acquire) + finishes : javaGcCount_.load(std::memory_order_acquire);
}

void LiveTable::setGcCount(uint64_t collections, int64_t finishes) {
    // Readings come from several threads: the count only grows, whatever order they arrive in.
    uint64_t seen = javaGcCount_.load(std::memory_order_acquire);
    while (collections > seen && !javaGcCount_.compare_exchange_weak(seen, collections, std::memory_order_acq_rel)) {
    }
    if (finishes < 0) {
        return;
    }
    std::lock_guard<std::mutex> guard(clockLock_);
    uint64_t f = static_cast<uint64_t>(finishes);
    if (clockRead_ && (f < readFinishes_ || collections < readCollections_)) {
        return;  // older than the last reading: it would find the same pauses again
    }
    if (clockRead_) {
        uint64_t k = f - readFinishes_;
        uint64_t b = collections > readCollections_ ? collections - readCollections_ : 0;
        uint64_t base = jvmtiBase_.load(std::memory_order_acquire);
        for (uint64_t i = k > b ? f - (k - b) + 1 : f + 1; i <= f; i++) {
            if (pauses_.size() >= kMaxPauses) {
                pauses_.erase(pauses_.begin());
            }
            pauses_.push_back(base + i);
        }
    }
    clockRead_ = true;
    readFinishes_ = f;
    readCollections_ = collections;
}

uint64_t LiveTable::countedEpoch(std::vector<uint64_t>& pauses) {
    uint64_t finishes = jvmtiGcFinishes_.load(std::memory_order_acquire);
    if (finishes == 0) {
        return javaGcCount_.load(std::memory_order_acquire);  // no JVMTI events (ZGC, Shenandoah): the beans' count
    }
    std::lock_guard<std::mutex> guard(clockLock_);
    pauses = pauses_;
    uint64_t read = clockRead_ ? std::min(readFinishes_, finishes) : 0;
    return jvmtiBase_.load(std::memory_order_acquire) + read;
}

uint64_t LiveTable::gcsSurvived(uint64_t since, uint64_t counted, const std::vector<uint64_t>& pauses) const {
    if (counted <= since) {
        return 0;
    }
    auto first = std::upper_bound(pauses.begin(), pauses.end(), since);
    auto last = std::upper_bound(first, pauses.end(), counted);
    uint64_t freeingNothing = static_cast<uint64_t>(last - first);
    return counted - since > freeingNothing ? counted - since - freeingNothing : 0;
}

void LiveTable::enable(const LiveSettings& settings) {
    std::lock_guard<std::mutex> guard(lock_);
    if (rng_ == 0) {
        // A fixed seed made every JVM of a benchmark flip the same coins: equal figures in five runs, and
        // an interval checked five times that was really checked once.
        rng_ = static_cast<uint64_t>(monotonicNanos()) * 0x9E3779B97F4A7C15ull ^ reinterpret_cast<uintptr_t>(this);
        if (rng_ == 0) rng_ = 0x9E3779B97F4A7C15ull;
    }
    if (jvmtiGcFinishes_.load() == 0) {
        jvmtiBase_.store(javaGcCount_.load());
    }
    main_.budget = settings.budget < 2 ? 2 : settings.budget;
    largeThreshold_ = settings.largeThreshold > 0 ? settings.largeThreshold : 0;
    large_.budget = settings.largeBudget < 2 ? 2 : settings.largeBudget;
    main_.byteBudget = settings.byteBudget > 0 ? settings.byteBudget : 0;
    large_.byteBudget = settings.largeByteBudget > 0 ? settings.largeByteBudget : 0;
    main_.youngHeld = settings.youngHeld;
    main_.entries.reserve(main_.budget);
    for (Stratum* s : {&main_, &large_}) {
        while (s->entries.size() > s->budget) {
            thinLocked(*s);  // a smaller budget than last time: thin down to it
        }
        recountLocked(*s);
        for (int round = 0; round < 128 && s->byteBudget > 0 && s->unexaminedBytes > s->byteBudget; round++) {
            thinBytesLocked(*s);
        }
        if (s->byteBudget == 0) {
            s->theta = std::numeric_limits<double>::infinity();  // no bound now: admit by the count rule alone
        }
    }
    enabled_.store(true, std::memory_order_release);
}

SiteLetGo& LiveTable::letGoLocked(uint32_t site) {
    if (site >= letGo_.size()) {
        letGo_.resize(static_cast<size_t>(site) + 1);  // site ids are dense indices into the bounded site table
    }
    return letGo_[site];
}

void LiveTable::noteByteCoinLostLocked(uint32_t site, double objects, double bytes) {
    SiteLetGo& lost = letGoLocked(site);
    lost.unitObjects = std::max(lost.unitObjects, objects);
    lost.unitBytes = std::max(lost.unitBytes, bytes);
}

void LiveTable::letGoUncompensatedLocked(uint32_t site, int64_t size, double objects, double bytes) {
    // Its weight is also that of one more sample of the site: the released ones may be few, and stood for
    // objects lost to earlier coins too.
    noteByteCoinLostLocked(site, objects, bytes);
    SiteLetGo& lost = letGoLocked(site);
    lost.releasedObjects += objects;
    lost.releasedObjectsVariance += objects * objects - objects;
    lost.releasedBytes += bytes;
    lost.releasedBytesVariance += bytes * bytes - static_cast<double>(size) * bytes;
}

std::vector<std::pair<uint32_t, SiteLetGo>> LiveTable::letGoRecordsLocked() const {
    std::vector<std::pair<uint32_t, SiteLetGo>> out;
    for (size_t i = 0; i < letGo_.size(); i++) {
        const SiteLetGo& g = letGo_[i];
        if (g.unitBytes > 0 || g.releasedBytes > 0) out.emplace_back(static_cast<uint32_t>(i), g);
    }
    return out;
}

double LiveTable::uniformLocked() {
    // xorshift64*: fast, good enough to flip fair coins; guarded by lock_.
    rng_ ^= rng_ >> 12;
    rng_ ^= rng_ << 25;
    rng_ ^= rng_ >> 27;
    return static_cast<double>((rng_ * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

void LiveTable::thinLocked(Stratum& stratum) {
    // In the main stratum, young entries go first when they are at least half of it; old ones
    // are spared that round and keep their weight. The large stratum is thinned uniformly.
    LiveEntries& entries = stratum.entries;
    uint64_t epoch = gcEpoch();
    bool youngOnly = false;
    if (stratum.youngFirst) {
        size_t young = 0;
        for (const LiveEntry& e : entries) {
            if (e.gcEpoch >= epoch) young++;
        }
        youngOnly = young * 2 >= entries.size();
    }
    size_t kept = 0;
    for (size_t i = 0; i < entries.size(); i++) {
        LiveEntry e = entries[i];
        bool eligible = !(youngOnly && e.gcEpoch < epoch);
        if (!eligible) {
            entries[kept++] = e;
        } else if (uniformLocked() < 0.5) {
            e.objects *= 2;
            e.bytes *= 2;
            entries[kept++] = e;
        } else {
            pendingDelete_.push_back(e.ref);
            forgetLocked(stratum, e);
            counters_.thinnedEntries++;
        }
    }
    entries.resize(kept);
    stratum.keep /= 2;
    counters_.thinnings++;
}

void LiveTable::thinBytesLocked(Stratum& stratum) {
    LiveEntries& entries = stratum.entries;
    if (stratum.theta == std::numeric_limits<double>::infinity()) {
        // The first level: the largest unexamined entry, so the halving below thins the largest first.
        int64_t largest = 1;
        for (const LiveEntry& e : entries) {
            if (heldLocked(stratum, e)) largest = std::max(largest, e.size);
        }
        stratum.theta = std::min(static_cast<double>(largest), static_cast<double>(stratum.byteBudget));
    }
    double before = stratum.theta;
    stratum.theta = std::max(before / 2, 1.0);
    // At the floor (a level of one byte) the level no longer moves: every unexamined entry then gets a fair
    // coin, so each round still halves what is held and the admission loop always ends under the bound.
    bool floor = stratum.theta == before;
    size_t kept = 0;
    for (size_t i = 0; i < entries.size(); i++) {
        LiveEntry e = entries[i];
        double size = static_cast<double>(e.size > 0 ? e.size : 1);
        // Its coin: from the level it was held at (before) to the new one. An entry that came in at a
        // lower level (admitted before a recovery) is thinned more than it needs, never less: still unbiased,
        // since the weight is divided by the coin's own probability.
        double q = !heldLocked(stratum, e) ? 1.0
                   : floor          ? 0.5
                                    : std::min(1.0, stratum.theta / size) / std::min(1.0, before / size);
        if (q >= 1.0) {
            entries[kept++] = e;
        } else if (uniformLocked() < q) {
            e.objects /= q;
            e.bytes /= q;
            entries[kept++] = e;
        } else {
            noteByteCoinLostLocked(e.site, e.objects / q, e.bytes / q);
            pendingDelete_.push_back(e.ref);
            forgetLocked(stratum, e);
            counters_.byteThinnedEntries++;
        }
    }
    entries.resize(kept);
    counters_.byteThinnings++;
}

void LiveTable::setProvenBefore(int64_t nanos) {
    std::lock_guard<std::mutex> guard(lock_);
    if (nanos <= provenBefore_) {
        return;
    }
    provenBefore_ = nanos;
    for (Stratum* s : {&main_, &large_}) {
        recountLocked(*s);
        s->recoverKeep();
    }
}

void LiveTable::recountLocked(Stratum& stratum) {
    int64_t held = 0;
    for (const LiveEntry& e : stratum.entries) {
        if (heldLocked(stratum, e)) held += e.size;
    }
    stratum.unexaminedBytes = held;
}

uint64_t LiveTable::releaseUnexamined(JNIEnv* jni) {
    std::lock_guard<std::mutex> maintenance(maintenance_);
    std::vector<jweak> toDelete;
    uint64_t released = 0;
    {
        std::lock_guard<std::mutex> guard(lock_);
        toDelete.swap(pendingDelete_);
        for (Stratum* s : {&main_, &large_}) {
            size_t kept = 0;
            for (size_t i = 0; i < s->entries.size(); i++) {
                const LiveEntry& e = s->entries[i];
                if (unexaminedLocked(e)) {
                    letGoUncompensatedLocked(e.site, e.size, e.objects, e.bytes);
                    toDelete.push_back(e.ref);
                    s->trackedBytes -= e.size;
                    released++;
                } else {
                    s->entries[kept++] = e;
                }
            }
            s->entries.resize(kept);
            s->unexaminedBytes = 0;
        }
        counters_.releases++;
        counters_.releasedEntries += released;
    }
    deleteRefs(jni, toDelete);
    return released;
}

LiveHolding LiveTable::holding() {
    std::lock_guard<std::mutex> guard(lock_);
    int64_t tracked = main_.trackedBytes + large_.trackedBytes;
    double theta = main_.theta == std::numeric_limits<double>::infinity() ? 0.0 : main_.theta;
    return LiveHolding{main_.byteBudget + large_.byteBudget, main_.unexaminedBytes + large_.unexaminedBytes, tracked,
                       counters_.byteThinnings, counters_.byteThinnedEntries, counters_.oversize, counters_.releases,
                       counters_.releasedEntries, theta};
}

void LiveTable::admit(JNIEnv* jni, jobject object, uint32_t site, int64_t size, double objects, double bytes,
                      int64_t nowNanos) {
    if (!enabled()) {
        return;
    }
    flushPendingIfLarge(jni);
    double keepAtDecision;
    Stratum* stratum;  // decided once: enable() may move the threshold while this sample is in flight
    {
        std::lock_guard<std::mutex> guard(lock_);
        stratum = &stratumLocked(size);
        if (stratum->byteBudget > 0 && size > stratum->byteBudget) {
            counters_.oversize++;  // would pass the byte bound alone: never held back, and counted
            letGoUncompensatedLocked(site, size, objects, bytes);
            return;
        }
        keepAtDecision = stratum->keep * stratum->byteKeep(size);
        if (keepAtDecision < 1.0 && uniformLocked() >= keepAtDecision) {
            counters_.skipped++;
            if (stratum->byteKeep(size) < 1.0) noteByteCoinLostLocked(site, objects / keepAtDecision, bytes / keepAtDecision);
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
    while (stratum->full()) {
        thinLocked(*stratum);
    }
    // The byte bound: a new sample is not yet examined. Each round halves the level; the loop ends at
    // the latest when no unexamined entry is left (size <= byteBudget was checked above).
    for (int round = 0; round < 128 && stratum->youngHeld && stratum->byteBudget > 0
                        && stratum->unexaminedBytes + size > stratum->byteBudget;
         round++) {
        thinBytesLocked(*stratum);
    }
    double keep = stratum->keep * stratum->byteKeep(size);
    // Thinning since the decision lowered p: keep this sample with the conditional probability.
    if (keep < keepAtDecision && uniformLocked() >= keep / keepAtDecision) {
        pendingDelete_.push_back(ref);
        counters_.skipped++;
        if (stratum->byteKeep(size) < 1.0) noteByteCoinLostLocked(site, objects / keep, bytes / keep);
        return;
    }
    // Its probability of being here: keep if the coin above was flipped, keepAtDecision if p rose
    // meanwhile (maintenance raises it); either way the smaller of the two.
    double p = std::min(keep, keepAtDecision);
    stratum->entries.push_back(LiveEntry{ref, site, size, objects / p, bytes / p, nowNanos, gcEpoch()});
    if (nowNanos >= provenBefore_ && stratum->youngHeld) stratum->unexaminedBytes += size;  // else counted once it survives a GC
    stratum->trackedBytes += size;
    counters_.admitted++;
}

void LiveTable::flushPendingIfLarge(JNIEnv* jni) {
    {
        std::lock_guard<std::mutex> guard(lock_);
        if (pendingDelete_.size() <= main_.budget) {
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
    deleteRefs(jni, toDelete);
}

void LiveTable::deleteRefs(JNIEnv* jni, const std::vector<jweak>& refs) {
    for (jweak ref : refs) {
        jni->DeleteWeakGlobalRef(ref);
    }
    weakRefs_ -= refs.size();
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
        refs.reserve(main_.entries.size() + large_.entries.size());
        for (const Stratum* s : {&main_, &large_}) {
            for (const LiveEntry& e : s->entries) refs.push_back(e.ref);
        }
    }
    std::unordered_set<jweak> dead;
    for (jweak ref : refs) {
        if (jni->IsSameObject(ref, nullptr)) {
            dead.insert(ref);
        }
    }
    {
        std::lock_guard<std::mutex> guard(lock_);
        for (Stratum* s : {&main_, &large_}) {
            if (!dead.empty()) {
                removeDeadLocked(*s, dead, toDelete);
            }
            if (!s->youngHeld) {
                // After a collection its survivors count: the bound holds from here (the young went with the GC).
                recountLocked(*s);
                for (int round = 0; round < 128 && s->byteBudget > 0 && s->unexaminedBytes > s->byteBudget; round++) {
                    thinBytesLocked(*s);
                }
                toDelete.insert(toDelete.end(), pendingDelete_.begin(), pendingDelete_.end());
                pendingDelete_.clear();
            }
            s->recoverKeep();
        }
    }
    deleteRefs(jni, toDelete);
}

void LiveTable::removeDeadLocked(Stratum& stratum, const std::unordered_set<jweak>& dead, std::vector<jweak>& toDelete) {
    // Entries may have moved (thinning compacts), so match by reference, not position.
    // A dead entry thinned meanwhile is already in pendingDelete_ and is not counted twice.
    auto isDead = [&](const LiveEntry& e) { return dead.count(e.ref) != 0; };
    for (const LiveEntry& e : stratum.entries) {
        if (isDead(e)) {
            toDelete.push_back(e.ref);
            forgetLocked(stratum, e);
            counters_.died++;
        }
    }
    stratum.entries.erase(std::remove_if(stratum.entries.begin(), stratum.entries.end(), isDead), stratum.entries.end());
}

void LiveTable::write(JNIEnv* jni, ByteWriter& out, int64_t nowNanos) {
    // nowNanos goes out first: it lets the reader relate ages to its own clock (both monotonic).
    std::lock_guard<std::mutex> maintenance(maintenance_);
    // The GC count is read before the entries are checked alive: an entry found alive then survived
    // every collection counted. Read after, a collection ending in between counted for every young
    // entry it had just freed (thousands of dead objects "survived a GC", and --min-gcs 1 showed them).
    std::vector<uint64_t> pauses;
    uint64_t epoch = countedEpoch(pauses);
    maintainLocked(jni);
    LiveEntries mainEntries;  // copies on pages of their own, given back after the snapshot
    LiveEntries largeEntries;
    LiveCounters counters;
    double keep;
    uint32_t budget;
    LiveHolding holds = holding();
    std::vector<std::pair<uint32_t, SiteLetGo>> lost;
    {
        std::lock_guard<std::mutex> guard(lock_);
        mainEntries = main_.entries;
        largeEntries = large_.entries;
        counters = counters_;
        keep = main_.keep;
        budget = main_.budget;
        lost = letGoRecordsLocked();  // with the entries: a release in between would count an entry twice
    }
    SnapshotWriter w(out);
    w.live({nowNanos, enabled(), budget, keep, counters.admitted, counters.skipped, counters.thinnings, counters.thinnedEntries,
            counters.died, counters.refFailures, weakRefs_.load(), epoch, holds.byteBudget, holds.unexaminedBytes,
            holds.trackedBytes, holds.byteThinnings, holds.byteThinnedEntries, holds.oversize, holds.releases,
            holds.releasedEntries, holds.theta, static_cast<uint32_t>(mainEntries.size() + largeEntries.size())});
    for (bool large : {false, true}) {
        for (const LiveEntry& e : large ? largeEntries : mainEntries) {
            w.liveEntry({e.site, static_cast<uint64_t>(e.size), e.objects, e.bytes, static_cast<uint64_t>(nowNanos - e.allocNanos),
                         gcsSurvived(e.gcEpoch, epoch, pauses), large});
        }
    }
    w.letGoCount(static_cast<uint32_t>(lost.size()));
    for (const auto& site : lost) {
        const SiteLetGo& g = site.second;
        w.letGo({site.first, g.unitObjects, g.unitBytes, g.releasedObjects, g.releasedObjectsVariance, g.releasedBytes,
                 g.releasedBytesVariance});
    }
}

int LiveTable::strongRefs(JNIEnv* jni, const std::vector<uint32_t>& sites, int max, jobject* out) {
    // maintenance_ keeps every copied reference from being deleted while it is turned strong.
    std::lock_guard<std::mutex> maintenance(maintenance_);
    std::vector<std::pair<int64_t, jweak>> candidates;
    {
        std::lock_guard<std::mutex> guard(lock_);
        for (const Stratum* s : {&main_, &large_}) {
            for (const LiveEntry& e : s->entries) {
                if (std::binary_search(sites.begin(), sites.end(), e.site)) {
                    candidates.emplace_back(e.allocNanos, e.ref);
                }
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
        for (Stratum* s : {&main_, &large_}) {
            for (const LiveEntry& e : s->entries) toDelete.push_back(e.ref);
            releaseMemory(s->entries);
            s->keep = 1.0;
            s->theta = std::numeric_limits<double>::infinity();
            s->unexaminedBytes = 0;
            s->trackedBytes = 0;
        }
        releaseMemory(letGo_);
        counters_ = LiveCounters();
    }
    deleteRefs(jni, toDelete);
}

uint64_t LiveTable::memoryBytes() {
    std::lock_guard<std::mutex> guard(lock_);
    return (main_.entries.capacity() + large_.entries.capacity()) * sizeof(LiveEntry) + pendingDelete_.capacity() * sizeof(jweak)
           + letGo_.capacity() * sizeof(SiteLetGo);
}
