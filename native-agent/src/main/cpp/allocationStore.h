// The allocation profile of one capture: interned frames and stacks, and per (stack, allocated
// class) counters of samples and Poisson-weighted objects and bytes.
//
// One mutex guards it; it is held only for hash-table work, never across a JVMTI or JNI call.
// Every table is bounded: a sample whose stack does not fit (stack or frame table full) is still
// counted, under the "[other stacks]" pseudo-stack (kOtherStacks) of its class; one whose site does
// not fit goes to the one site kept in reserve for it, ("[other stacks]", "[other classes]"), so
// totals stay whole however long sampling runs. A sample taken on a thread with no Java frame (the
// VM allocating for itself) is counted under no stack (kNone).
//
// The counters only grow within a generation (a start or reset): every difference between two
// readings (a delta scrape, a capture during continuous sampling) is taken on the Java side
// (wire's CounterWindow), so nothing here keeps a second copy of them.
#pragma once
#include <jvmti.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "byteWriter.h"
#include "limits.h"
#include "methodCache.h"
#include "pageAllocator.h"

struct DropCounters {
    uint64_t samplesDropped = 0;          // site table full: the sample is lost
    uint64_t samplesWithoutStack = 0;     // no Java frame, or stack or frame table full: kept without its stack
    uint64_t samplesStackError = 0;       // GetStackTrace failed: kept without its stack
    uint64_t samplesTruncated = 0;        // stack deeper than the configured depth
    uint64_t samplesAfterDeadline = 0;    // refused: the time box had ended
    uint64_t classesDropped = 0;          // class table full: counted under "[other classes]"
};

class AllocationStore {
  public:
    explicit AllocationStore(const Limits& limits) : limits_(limits) {}

    // Starts a new capture: zeroes every counter but keeps the stacks and sites, which tracked
    // live objects of earlier captures still refer to. Samples of an older generation still in
    // flight are ignored when they arrive.
    void startCapture(uint64_t generation, const Limits& limits);
    // Forgets everything.
    void clear(uint64_t generation);

    // Returns the site the sample was counted in, or kNone if it was dropped.
    // frames == nullptr means "no usable stack".
    uint32_t record(uint64_t generation, const jvmtiFrameInfo* frames, int32_t count, bool truncated,
                    const char* classSignature, int64_t size, double objects, double bytes);
    // Whether the stack table takes no new stack: a sample's methods then need resolving only if
    // its stack is one already kept (whose methods were resolved when it was).
    bool stacksFull();
    void countStackError(uint64_t generation);
    void countAfterDeadline();

    // Appends the whole profile to out, every counter as it stands, using methods for frame names.
    void write(ByteWriter& out, MethodCache& methods);

    uint64_t samples();

    struct Sizes {
        uint64_t classes, classBytes, frames, stacks, stackFrames, sites;
    };
    Sizes sizes();

    // Bytes held by the tables: capacities times entry sizes plus hash-node overhead (an
    // estimate of what malloc holds for them; NMT does not see an agent's own allocations).
    uint64_t memoryBytes();

  private:
    struct FrameKey {
        jmethodID method;
        int32_t bci;
        bool operator==(const FrameKey& o) const { return method == o.method && bci == o.bci; }
    };
    struct FrameKeyHash {
        size_t operator()(const FrameKey& k) const {
            return std::hash<const void*>()(k.method) * 31u + static_cast<size_t>(k.bci);
        }
    };
    struct Stack {
        uint32_t offset;  // into stackFrames_
        uint32_t length;
        bool truncated;
    };
    struct Site {
        uint64_t samples = 0;
        double objects = 0;
        double bytes = 0;
        // Horvitz-Thompson variance estimates of objects and bytes: each sample adds (1-p)/p^2 y^2,
        // that is w^2 - w for objects (w = 1/p) and b^2 - s*b for bytes (b = s/p).
        double objectsVariance = 0;
        double bytesVariance = 0;
    };

    uint32_t internStack(const jvmtiFrameInfo* frames, int32_t count, bool truncated);
    // A class's id; a class not seen yet is added only if mayAdd (else "[other classes]", counted).
    uint32_t internClass(const char* signature, bool mayAdd);
    Site* site(uint32_t stack, uint32_t klass);

    Limits limits_;
    std::mutex lock_;
    uint64_t generation_ = 0;
    uint64_t samples_ = 0;
    DropCounters drops_;

    // Big tables take pages of their own (pageAllocator.h), so reset gives them back to the system.
    template <typename T>
    using Table = std::vector<T, PageAllocator<T>>;
    template <typename K, typename V, typename H = std::hash<K>>
    using Index = std::unordered_map<K, V, H, std::equal_to<K>, PageAllocator<std::pair<const K, V>>>;

    Index<FrameKey, uint32_t, FrameKeyHash> frameIndex_;
    Table<FrameKey> frames_;
    std::unordered_multimap<uint64_t, uint32_t, std::hash<uint64_t>, std::equal_to<uint64_t>,
                            PageAllocator<std::pair<const uint64_t, uint32_t>>> stackIndex_;  // hash -> stack id
    Table<uint32_t> stackFrames_;
    Table<Stack> stacks_;
    std::unordered_map<std::string, uint32_t> classIndex_;
    std::vector<std::string> classes_;
    Index<uint64_t, uint32_t> siteIndex_;  // (stack << 32 | class) -> site id
    Table<uint64_t> siteKeys_;
    Table<Site> sites_;
};
