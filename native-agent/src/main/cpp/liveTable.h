// Weak references to sampled objects, so a dump can say which sites hold live memory now, how
// old those objects are and how many GCs they survived.
//
// The table has a fixed budget. When it is full it is thinned instead of refusing new samples:
// entries are kept with probability 1/2 and survivors' weights double, and new samples are
// admitted with the current keep-probability p and weight 1/p. Every entry's weight is the
// inverse of its own probability of being in the table, so every estimate stays unbiased.
//
// Two refinements of the plain scheme, both still unbiased:
// - Young entries first. Between two GCs the table fills with garbage that is about to die;
//   thinning everything uniformly then halves the long-lived objects at every fill (dozens of
//   times a second under heavy garbage) until none is left. So when at least half the table is
//   young (allocated since the last GC), only young entries are thinned; old entries are thinned
//   only when they fill half the table by themselves.
// - p recovers: it doubles again (up to 1) whenever cleaning leaves the table at most a quarter
//   full, so one burst of garbage does not lower the precision of the rest of the capture.
// - Large objects have their own small stratum. On G1 a JNI weak reference to a humongous object
//   (at least half a region) keeps G1 from reclaiming it eagerly, so a table full of humongous
//   garbage fills the old generation and forces concurrent cycles (measured: GC pauses x4). Samples
//   of at least largeThreshold bytes go to a separate budget with its own keep-probability and
//   thinning, which caps what the table can hold back; weights keep that stratum unbiased too.
//   Before a whole-heap marking has examined them, the Java side counts these entries as they are,
//   never upscaled: the reference may be all that keeps them (SnapshotDecoder, LiveStats).
// - A byte bound on what the table holds back. An entry allocated after the last whole-heap marking
//   (setProvenBefore) is not yet examined: its weak reference may be all that keeps a dead object
//   (generational ZGC's young cycles, and generational Shenandoah's, leave JNI weak references alone;
//   G1 never reclaims a weakly referenced humongous object eagerly). The sizes of those entries add up
//   to at most byteBudget per stratum. When a new sample would pass it, the stratum's byte level theta
//   halves and every unexamined entry of size s is kept with probability min(1, theta/s) / min(1,
//   2 theta/s), its weights divided by that; new samples are admitted with min(1, theta/s) (times the
//   count keep-probability). Size-proportional, because bytes are what the bound is about: objects
//   smaller than theta are spared, larger ones are thinned to theta's worth of bytes in expectation.
//   Unbiased for the same reason the coins above are: each coin is decided on the past only, and an
//   entry's weight is divided by the probability of the coin it won, so its expected weight after the
//   coin equals its weight before (a martingale; the estimate's expectation is the truth). An object
//   larger than the whole byte budget is never tracked (counted as oversize, shown by the views: that
//   part of the estimate is missing, not guessed). theta doubles again when the unexamined bytes fall
//   to a quarter of the budget (a marking has examined them, or they died).
//   Where young collections clear weak references to dead young objects (G1, Parallel, Serial: the
//   stratum's youngHeld false), an entry younger than the last collection holds nothing back: it
//   counts once it has survived one, so the main stratum is bounded after each collection
//   (maintain()), not at admission. Large objects, and every object on generational ZGC and
//   Shenandoah (youngHeld true), count from their admission.
// - Heap critical: the Java side asks to let go of every unexamined entry at once (releaseUnexamined):
//   counted, and said in the views; the estimate of those objects is lost, not biased silently.
// - What each site let go, for its interval (SiteLetGo). A coin keeps the estimate unbiased, but when a
//   site's coins leave it few entries, or none, the variance its kept entries imply is near 0 and its
//   interval claims a precision it does not have: 1 MiB arrays kept with probability 1/200 read 0 [0, 0]
//   while they held 10% of the heap (generational ZGC, the coverage bench). So a byte coin an entry
//   loses (at admission or thinning) keeps, per site, the largest weight an entry of it would have
//   carried had it won: the Java side's interval never ends below Garwood's upper bound for no sample
//   left at that weight (about 3.7 of them). A critical release, and a sample larger than the whole
//   bound, have no coin and no compensation: the weight of what they let go is added to the site's
//   upper end ("at most"), since those objects may all be alive still. Count
//   thinning is left out: it thins young entries first, and G1's and Parallel's intervals are
//   calibrated under it (the coverage bench). One record per site that let anything go, indexed by
//   site: bounded by the site table.
//
// Each entry's weight is 1/pi, pi its probability of being here (Poisson sampler times admission and
// thinning coins): the Java side derives the Horvitz-Thompson variance (1-pi)/pi^2 y^2 from it and
// the size written with every entry, so nothing more is kept per entry for the intervals.
//
// Each stratum is a Stratum: its budget, keep-probability and entries, thinned on its own (the
// main one young entries first, the large one uniformly). The counters are the table's: the snapshot
// reports them summed over both strata.
//
// Locking: lock_ guards the table and is held only for vector work, never across JNI.
// Weak references are deleted only under maintenance_ (maintain(), clear(), and an allocating
// thread that finds too many thinned references pending and can take the lock without waiting),
// so a reference is never checked while another thread deletes it: entries removed by thinning go
// to pendingDelete_ and wait there. No sample is ever refused for lack of room: that would bias
// the estimate low.
#pragma once
#include <jni.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "byteWriter.h"
#include "collectionSignal.h"
#include "pageAllocator.h"

struct LiveEntry {
    jweak ref;
    uint32_t site;       // index into AllocationStore's site table
    int64_t size;        // bytes of the object
    double objects;      // Poisson weight / admission probability, doubled per thinning
    double bytes;
    int64_t allocNanos;  // monotonic time of allocation
    uint64_t gcEpoch;    // GC count at allocation
};

using LiveEntries = std::vector<LiveEntry, PageAllocator<LiveEntry>>;  // pages of its own: clear() gives them back

// What a site let go (see above): the weights of one more entry had it won its byte coin, at most, and
// the weights of entries let go by a critical release, summed with their variances ((1-pi)/pi^2 y^2, as
// the Java side derives for a kept entry: the released ones are an estimate too).
struct SiteLetGo {
    double unitObjects = 0;
    double unitBytes = 0;
    double releasedObjects = 0;   // the released entries' weights, and their Horvitz-Thompson variances
    double releasedObjectsVariance = 0;
    double releasedBytes = 0;
    double releasedBytesVariance = 0;
};

// One stratum of the table. Guarded by LiveTable::lock_.
struct Stratum {
    explicit Stratum(bool youngFirst) : youngFirst(youngFirst) {}

    const bool youngFirst;  // thinning spares old entries while young ones are at least half
    uint32_t budget = 2;
    double keep = 1.0;      // probability of admitting a new sample
    int64_t byteBudget = 0;  // bytes of unexamined entries at most; 0: no byte bound
    bool youngHeld = true;   // entries younger than the last collection count too (their weak reference may hold them)
    // The byte level: a new sample of size s is admitted with probability min(1, theta / s) (times keep).
    double theta = std::numeric_limits<double>::infinity();
    int64_t unexaminedBytes = 0;  // sizes of the entries held back: unexamined (and, unless youngHeld, older than the last GC)
    int64_t trackedBytes = 0;     // sizes of all its entries (kept as they change: holding() is read after every GC)
    LiveEntries entries;

    double byteKeep(int64_t size) const { return size <= theta ? 1.0 : theta / static_cast<double>(size); }

    bool full() const { return entries.size() >= budget; }
    // Room again: let new samples in with a higher probability (still weighted 1/p).
    void recoverKeep() {
        while (keep < 1.0 && entries.size() * 4 <= budget) {
            keep = keep * 2 < 1.0 ? keep * 2 : 1.0;
        }
        while (theta < std::numeric_limits<double>::infinity() && unexaminedBytes * 4 <= byteBudget) {
            theta = theta * 2 < static_cast<double>(byteBudget) ? theta * 2 : std::numeric_limits<double>::infinity();
        }
    }
};

// What a capture asks of the live table (NativeAgent.start's SamplerSettings).
struct LiveSettings {
    uint32_t budget = 0;         // 0: no live tracking for this capture
    int64_t largeThreshold = 0;  // objects of at least this many bytes go to the large stratum; 0: none
    uint32_t largeBudget = 2;
    int64_t byteBudget = 0;       // bytes of not yet examined entries in the main stratum at most; 0: no bound
    int64_t largeByteBudget = 0;  // the same for the large stratum
    bool youngHeld = true;        // main stratum: young collections leave weak references to dead young objects set
};

// What the table holds back now (liveHolding0, the snapshot's live header): both strata summed.
struct LiveHolding {
    int64_t byteBudget;          // main + large
    int64_t unexaminedBytes;     // sizes of tracked entries not yet examined by a whole-heap marking
    int64_t trackedBytes;        // sizes of every tracked entry
    uint64_t byteThinnings;      // times the byte bound thinned a stratum
    uint64_t byteThinnedEntries; // entries removed by those
    uint64_t oversize;           // samples larger than their stratum's whole byte budget, never tracked
    uint64_t releases;           // times every unexamined entry was let go (heap critical)
    uint64_t releasedEntries;    // entries let go by those
    double theta;                // the main stratum's byte level, 0 when no byte thinning is in force
};

struct LiveCounters {
    uint64_t admitted = 0;        // entries ever added
    uint64_t skipped = 0;         // samples not admitted by the keep-probability coin (weighted for)
    uint64_t thinnings = 0;       // times the table was thinned
    uint64_t thinnedEntries = 0;  // entries removed by thinning
    uint64_t died = 0;            // entries removed because their object was collected
    uint64_t refFailures = 0;     // NewWeakGlobalRef returned null (out of memory)
    uint64_t byteThinnings = 0;   // thinnings by the byte bound
    uint64_t byteThinnedEntries = 0;
    uint64_t oversize = 0;
    uint64_t releases = 0;
    uint64_t releasedEntries = 0;
};

class LiveTable {
  public:
    LiveTable() = default;

    // Starts tracking with a budget; entries already tracked stay (their objects may still live).
    // Objects of at least largeThreshold bytes (0: none) share the separate largeBudget.
    void enable(const LiveSettings& settings);
    // Stops admitting new samples; tracked entries stay until clear().
    void disable() { enabled_.store(false, std::memory_order_release); }
    bool enabled() const { return enabled_.load(std::memory_order_acquire); }

    // Called from SampledObjectAlloc.
    void admit(JNIEnv* jni, jobject object, uint32_t site, int64_t size, double objects, double bytes,
               int64_t nowNanos);

    // Deletes weak references of dead and thinned entries. Needs a JNIEnv of a Java thread.
    void maintain(JNIEnv* jni);
    // Writes the live entries (after maintain()) with ages and GCs survived as of nowNanos.
    void write(JNIEnv* jni, ByteWriter& out, int64_t nowNanos);
    // Strong local references to up to max tracked objects of the given sites (sorted), oldest
    // first: the objects a leak hunt asks about. Collected objects are skipped. Returns how many.
    int strongRefs(JNIEnv* jni, const std::vector<uint32_t>& sites, int max, jobject* out);
    // Deletes every weak reference and frees the table.
    void clear(JNIEnv* jni);
    // Objects allocated before this monotonic instant (System.nanoTime()) have been examined by a completed
    // whole-heap marking; the byte bound counts only the younger ones. Only grows.
    void setProvenBefore(int64_t nanos);
    // Heap critical: deletes the weak reference of every entry not yet examined, at once. Returns how many.
    uint64_t releaseUnexamined(JNIEnv* jni);
    LiveHolding holding();

    // The GC clock: collections reported by the Java side (GC MXBeans), unless the collector posts
    // JVMTI GarbageCollectionFinish events, which are counted exactly when each GC ends.
    //
    // "GCs survived" counts only collections that could have freed the object. On G1 the JVMTI
    // finishes include Remark and Cleanup, which free no young object: counted, garbage allocated
    // during a concurrent mark "survived 2 GCs" until the next young collection, and --min-gcs 1
    // showed it (measured: 1-2 MB of churn after every cycle). So the Java side passes, with its
    // count of collections (the GC beans that free objects), the JVMTI finishes read in agreement
    // with it (finishes < 0: no agreeing reading). Between two readings, finishes beyond the
    // collections' growth were such pauses. Which ones is certain when a reading follows each
    // pause (heaptap-live reads after every one); when several mixed, the latest are taken as
    // the pauses, so an entry's count can fall short, never exceed. Finishes after the last
    // reading are not counted yet: an entry found alive has survived every collection counted.
    void setGcCount(uint64_t collections, int64_t finishes);
    // In the GC callback: counts the collection and wakes heaptap-live to clean up after it.
    void onGcFinish() {
        jvmtiGcFinishes_.fetch_add(1, std::memory_order_acq_rel);
        collections_.post();
    }
    // What wakes heaptap-live: collections' ends, and the Java side's posts.
    CollectionSignal& collections() { return collections_; }
    // JVMTI GarbageCollectionFinish events so far (while tracking enabled them). On G1 they include the
    // Remark and Cleanup pauses that no GC MXBean counts before JDK 20: the Java side tells them apart.
    uint64_t jvmtiGcFinishes() const { return jvmtiGcFinishes_.load(std::memory_order_acquire); }
    uint64_t gcEpoch() const;
    uint64_t weakRefsHeld() const { return weakRefs_.load(); }
    // Collections an entry allocated at gcEpoch() == since has survived, as of counted (countedEpoch()).
    uint64_t gcsSurvived(uint64_t since, uint64_t counted, const std::vector<uint64_t>& pauses) const;
    uint64_t memoryBytes();

  private:
    // Keeps each entry of one stratum with probability 1/2, doubling the survivors' weights.
    void thinLocked(Stratum& stratum);
    // Halves the stratum's byte level and thins its unexamined entries to it (see the header comment).
    void thinBytesLocked(Stratum& stratum);
    bool unexaminedLocked(const LiveEntry& e) const { return e.allocNanos >= provenBefore_; }
    // Whether the entry counts against the stratum's byte bound now.
    bool heldLocked(const Stratum& stratum, const LiveEntry& e) const {
        return unexaminedLocked(e) && (stratum.youngHeld || e.gcEpoch < gcEpoch());
    }
    // The stratum's held bytes counted again (the clock moved: a marking, a collection).
    void recountLocked(Stratum& stratum);
    // An entry leaves its stratum (thinned, dead, released): its bytes leave the sums.
    void forgetLocked(Stratum& stratum, const LiveEntry& e) {
        if (heldLocked(stratum, e)) stratum.unexaminedBytes = std::max<int64_t>(0, stratum.unexaminedBytes - e.size);
        stratum.trackedBytes -= e.size;
    }
    Stratum& stratumLocked(int64_t size) { return largeThreshold_ > 0 && size >= largeThreshold_ ? large_ : main_; }
    double uniformLocked();
    SiteLetGo& letGoLocked(uint32_t site);
    // The sites that let something go, for the snapshot: (site, record) in site order.
    std::vector<std::pair<uint32_t, SiteLetGo>> letGoRecordsLocked() const;
    // A byte coin (admission or thinning) lost: the weights the entry would have carried had it won.
    void noteByteCoinLostLocked(uint32_t site, double objects, double bytes);
    // Let go with no coin to make up for it (a critical release, a sample larger than the bound): its weights.
    void letGoUncompensatedLocked(uint32_t site, int64_t size, double objects, double bytes);
    void maintainLocked(JNIEnv* jni);
    void removeDeadLocked(Stratum& stratum, const std::unordered_set<jweak>& dead, std::vector<jweak>& toDelete);
    void flushPendingIfLarge(JNIEnv* jni);
    // The GC clock as far as the Java side has read it, and the pauses that freed nothing so far (a copy).
    uint64_t countedEpoch(std::vector<uint64_t>& pauses);
    // The one way weak references go: deleted outside lock_, under maintenance_, and counted.
    void deleteRefs(JNIEnv* jni, const std::vector<jweak>& refs);

    std::mutex maintenance_;
    std::mutex lock_;
    std::atomic<bool> enabled_{false};
    std::atomic<uint64_t> javaGcCount_{0};
    std::atomic<uint64_t> jvmtiGcFinishes_{0};
    CollectionSignal collections_;
    std::atomic<uint64_t> jvmtiBase_{0};   // Java count when tracking began: JVMTI counts continue it
    // The Java side's agreeing readings (setGcCount), under clockLock_: the last one, and the epochs
    // (gcEpoch() values) of the finishes that were pauses freeing nothing, ascending, the latest
    // kMaxPauses only: an entry older than all of them has survived thousands of collections, and
    // its count may then include a few such pauses.
    static constexpr size_t kMaxPauses = 4096;
    std::mutex clockLock_;
    bool clockRead_ = false;
    uint64_t readFinishes_ = 0;
    uint64_t readCollections_ = 0;
    std::vector<uint64_t> pauses_;
    std::atomic<uint64_t> weakRefs_{0};  // created minus deleted: 0 after clear()
    Stratum main_{true};
    Stratum large_{false};
    int64_t largeThreshold_ = 0;
    int64_t provenBefore_ = std::numeric_limits<int64_t>::min();  // under lock_
    uint64_t rng_ = 0;  // seeded by enable(): runs of one workload must flip independent coins
    std::vector<SiteLetGo, PageAllocator<SiteLetGo>> letGo_;  // by site; empty until a site lets go
    std::vector<jweak> pendingDelete_;
    LiveCounters counters_;
};
