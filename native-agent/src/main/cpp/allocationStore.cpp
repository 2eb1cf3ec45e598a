#include "allocationStore.h"

#include <algorithm>

#include "memoryRelease.h"
#include "snapshotWriter.h"

namespace {

constexpr char kOtherClasses[] = "[other classes]";

uint64_t hashFrames(const uint32_t* ids, int32_t count, bool truncated) {
    uint64_t h = 1469598103934665603ull ^ (truncated ? 1u : 0u);
    for (int32_t i = 0; i < count; i++) {
        h = (h ^ ids[i]) * 1099511628211ull;
    }
    return h;
}

}  // namespace

void AllocationStore::startCapture(uint64_t generation, const Limits& limits) {
    std::lock_guard<std::mutex> guard(lock_);
    limits_ = limits;
    generation_ = generation;
    samples_ = 0;
    drops_ = DropCounters();
    for (Site& s : sites_) s = Site();
}

void AllocationStore::clear(uint64_t generation) {
    std::lock_guard<std::mutex> guard(lock_);
    generation_ = generation;
    samples_ = 0;
    drops_ = DropCounters();
    releaseMemory(frameIndex_);
    releaseMemory(frames_);
    releaseMemory(stackIndex_);
    releaseMemory(stackFrames_);
    releaseMemory(stacks_);
    releaseMemory(classIndex_);
    releaseMemory(classes_);
    releaseMemory(siteIndex_);
    releaseMemory(siteKeys_);
    releaseMemory(sites_);
}

uint32_t AllocationStore::internStack(const jvmtiFrameInfo* frames, int32_t count, bool truncated) {
    if (count <= 0 || count > limits_.maxStackDepth) {
        return kNone;
    }
    // A full stack table takes no new stack, so a frame not seen yet cannot be in one: it is not
    // interned either (under class churn every sample brings new frames, and the frame table grew
    // to its million entries behind a full stack table).
    bool full = stacks_.size() >= limits_.maxStacks;
    uint32_t ids[kMaxStackDepth];
    for (int32_t i = 0; i < count; i++) {
        FrameKey key{frames[i].method, static_cast<int32_t>(frames[i].location)};
        auto it = frameIndex_.find(key);
        if (it == frameIndex_.end()) {
            if (full || frames_.size() >= limits_.maxFrames) {
                return kNone;
            }
            it = frameIndex_.emplace(key, static_cast<uint32_t>(frames_.size())).first;
            frames_.push_back(key);
        }
        ids[i] = it->second;
    }
    uint64_t hash = hashFrames(ids, count, truncated);
    auto range = stackIndex_.equal_range(hash);
    for (auto it = range.first; it != range.second; ++it) {
        const Stack& s = stacks_[it->second];
        if (s.length == static_cast<uint32_t>(count) && s.truncated == truncated &&
            std::equal(ids, ids + count, stackFrames_.begin() + s.offset)) {
            return it->second;
        }
    }
    if (stacks_.size() >= limits_.maxStacks) {
        return kNone;
    }
    uint32_t id = static_cast<uint32_t>(stacks_.size());
    stacks_.push_back(Stack{static_cast<uint32_t>(stackFrames_.size()), static_cast<uint32_t>(count), truncated});
    stackFrames_.insert(stackFrames_.end(), ids, ids + count);
    stackIndex_.emplace(hash, id);
    return id;
}

bool AllocationStore::stacksFull() {
    std::lock_guard<std::mutex> guard(lock_);
    return stacks_.size() >= limits_.maxStacks;
}

uint32_t AllocationStore::internClass(const char* signature, bool mayAdd) {
    std::string key(signature != nullptr ? signature : "[unknown class]");
    auto it = classIndex_.find(key);
    if (it != classIndex_.end()) {
        return it->second;
    }
    if (!mayAdd || classes_.size() >= limits_.maxClasses) {
        drops_.classesDropped++;
        key = kOtherClasses;
        it = classIndex_.find(key);
        if (it != classIndex_.end()) {
            return it->second;
        }
    }
    uint32_t id = static_cast<uint32_t>(classes_.size());
    classIndex_.emplace(key, id);
    classes_.push_back(std::move(key));
    return id;
}

AllocationStore::Site* AllocationStore::site(uint32_t stack, uint32_t klass) {
    uint64_t key = (static_cast<uint64_t>(stack) << 32) | klass;
    auto it = siteIndex_.find(key);
    if (it != siteIndex_.end()) {
        return &sites_[it->second];
    }
    if (sites_.size() + 1 >= limits_.maxSites) {
        // The last slot is kept for ("[other stacks]", "[other classes]"): the sample is still counted.
        uint32_t other = internClass(kOtherClasses, true);
        uint64_t otherKey = (static_cast<uint64_t>(kOtherStacks) << 32) | other;
        if (key != otherKey) {
            if (stack != kOtherStacks) drops_.samplesWithoutStack++;
            return site(kOtherStacks, other);
        }
        if (sites_.size() >= limits_.maxSites) {
            return nullptr;
        }
    }
    siteIndex_.emplace(key, static_cast<uint32_t>(sites_.size()));
    siteKeys_.push_back(key);
    sites_.emplace_back();
    return &sites_.back();
}

uint32_t AllocationStore::record(uint64_t generation, const jvmtiFrameInfo* frames, int32_t count, bool truncated,
                                 const char* classSignature, int64_t size, double objects, double bytes) {
    std::lock_guard<std::mutex> guard(lock_);
    if (generation != generation_) {
        return kNone;  // a sample of a capture that has since been reset
    }
    uint32_t stack = frames != nullptr ? internStack(frames, count, truncated) : kNone;
    if (frames != nullptr && stack == kNone) {
        drops_.samplesWithoutStack++;
        stack = kOtherStacks;
    }
    // A class first seen in a sample whose stack did not fit is counted under "[other classes]":
    // under class churn each new class otherwise made a class and an "[other stacks]" site of its
    // own behind the full stack table, and a scrape's cost grew with them.
    Site* s = site(stack, internClass(classSignature, stack != kOtherStacks));
    if (s == nullptr) {
        drops_.samplesDropped++;
        return kNone;
    }
    samples_++;
    if (truncated) {
        drops_.samplesTruncated++;
    }
    s->samples++;
    s->objects += objects;
    s->bytes += bytes;
    s->objectsVariance += objects * objects - objects;
    s->bytesVariance += bytes * bytes - static_cast<double>(size) * bytes;
    return static_cast<uint32_t>(s - sites_.data());
}

void AllocationStore::countStackError(uint64_t generation) {
    std::lock_guard<std::mutex> guard(lock_);
    if (generation == generation_) {
        drops_.samplesStackError++;
    }
}

void AllocationStore::countAfterDeadline() {
    std::lock_guard<std::mutex> guard(lock_);
    drops_.samplesAfterDeadline++;
}

uint64_t AllocationStore::samples() {
    std::lock_guard<std::mutex> guard(lock_);
    return samples_;
}

AllocationStore::Sizes AllocationStore::sizes() {
    std::lock_guard<std::mutex> guard(lock_);
    uint64_t classBytes = 0;
    for (const std::string& c : classes_) classBytes += c.size();
    return Sizes{classes_.size(), classBytes, frames_.size(), stacks_.size(), stackFrames_.size(), sites_.size()};
}

uint64_t AllocationStore::memoryBytes() {
    constexpr uint64_t kNodeOverhead = 32;  // per hash node: next pointer, cached hash, malloc header
    std::lock_guard<std::mutex> guard(lock_);
    uint64_t bytes = 0;
    bytes += frames_.capacity() * sizeof(FrameKey) + frameIndex_.size() * (sizeof(FrameKey) + 4 + kNodeOverhead);
    bytes += stackFrames_.capacity() * 4 + stacks_.capacity() * sizeof(Stack) + stackIndex_.size() * (12 + kNodeOverhead);
    for (const std::string& c : classes_) bytes += 2 * (sizeof(std::string) + c.capacity() + kNodeOverhead);
    bytes += siteKeys_.capacity() * 8 + sites_.capacity() * sizeof(Site) + siteIndex_.size() * (12 + kNodeOverhead);
    bytes += (frameIndex_.bucket_count() + stackIndex_.bucket_count() + classIndex_.bucket_count() + siteIndex_.bucket_count()) * 8;
    return bytes;
}

void AllocationStore::write(ByteWriter& out, MethodCache& methods) {
    // Copy under the lock, serialise outside it: allocating threads wait only for the copy. The
    // copies live in pages of their own, given back as soon as the snapshot is written.
    Table<FrameKey> frames;
    Table<uint32_t> stackFrames;
    Table<Stack> stacks;
    std::vector<std::string> classes;
    Table<uint64_t> siteKeys;
    Table<Site> sites;
    uint64_t samples;
    DropCounters drops;
    {
        std::lock_guard<std::mutex> guard(lock_);
        frames = frames_;
        stackFrames = stackFrames_;
        stacks = stacks_;
        classes = classes_;
        siteKeys = siteKeys_;
        sites = sites_;
        samples = samples_;
        drops = drops_;
    }

    // One string pool for class and method names.
    std::unordered_map<std::string, uint32_t> poolIndex;
    std::vector<const std::string*> pool;
    auto intern = [&](const std::string& s) -> uint32_t {
        auto it = poolIndex.find(s);
        if (it != poolIndex.end()) return it->second;
        uint32_t id = static_cast<uint32_t>(poolIndex.size());
        auto inserted = poolIndex.emplace(s, id).first;
        pool.push_back(&inserted->first);
        return id;
    };

    ByteWriter body;
    SnapshotWriter w(body);
    w.counters({samples, drops.samplesDropped, drops.samplesWithoutStack, drops.samplesStackError, drops.samplesTruncated,
                drops.samplesAfterDeadline, drops.classesDropped, methods.unresolved()});

    methods.write(w, intern);

    w.count(frames.size());
    for (const FrameKey& f : frames) {
        w.frame(methods.indexOf(f.method), f.bci);
    }
    w.count(stacks.size());
    for (const Stack& s : stacks) {
        w.stack(s.truncated, s.length);
        for (uint32_t i = 0; i < s.length; i++) {
            w.stackFrame(stackFrames[s.offset + i]);
        }
    }
    w.count(sites.size());
    for (size_t i = 0; i < sites.size(); i++) {
        const Site& site = sites[i];
        w.site({static_cast<uint32_t>(siteKeys[i] >> 32), intern(classes[static_cast<uint32_t>(siteKeys[i])]), site.samples,
                site.objects, site.bytes, site.objectsVariance, site.bytesVariance});
    }

    // The string pool is complete only now; it goes first.
    SnapshotWriter(out).strings(pool);
    out.append(body);
}
