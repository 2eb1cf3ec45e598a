#include "referencePaths.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "fieldNames.h"
#include "limits.h"
#include "monotonicClock.h"
#include "rootScanCost.h"
#include "snapshotWriter.h"

namespace {

// Every tag a walk sets is a node id plus this base ("HT"), so a tag is never mistaken for another.
constexpr jlong kTagBase = 0x4854000000000000LL;
// The tag of java.lang.Class: the callback's class_tag then tells class objects apart.
constexpr jlong kClassClassTag = kTagBase - 1;
constexpr uint32_t kNoNode = 0xFFFFFFFFu;
constexpr uint64_t kClockEvery = 256;  // references between two reads of the clock
constexpr uint32_t kFirstGrowth = 4096;

std::mutex oneWalk;  // one walk at a time: its state lives in the callback's user data
// Measured time to the first reference over the model's estimate, in permille (rootScanCost.h).
std::atomic<int32_t> rootScanScale{1000};
constexpr int kDepthSamples = 32;  // stacks whose depth is read to estimate all of them

struct Node {
    uint32_t parent;  // the referrer's node; kNoNode for roots
    int32_t index;    // field, array element or frame depth of the reference into this node
    uint16_t depth;   // references from the root, or from the static field that holds it
    uint8_t kind;     // jvmtiHeapReferenceKind of that reference
    uint8_t reached;  // targets have a node before they are reached
};

bool isRoot(int kind) {
    return kind >= JVMTI_HEAP_REFERENCE_JNI_GLOBAL;
}

// Where a chain stops: at a root, or at a static field (a class is held by its loader, and the
// walk reaches it by whatever path it happens to take first; that path says nothing useful).
bool endsChain(int kind) {
    return isRoot(kind) || kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD;
}

struct Walk {
    Node* nodes = nullptr;
    uint32_t size = 0;
    uint32_t capacity = 0;
    uint32_t budget = 0;
    int32_t maxDepth = 0;
    int64_t deadline = 0;
    int64_t firstReference = 0;  // when the first root was reported: the pause before it is the JVM's
    int targetsLeft = 0;
    uint64_t references = 0;
    uint64_t depthLimited = 0;  // objects not followed because they were maxDepth deep
    PathCutOff cutOff = PathCutOff::kNone;

    ~Walk() { std::free(nodes); }

    int64_t nodeOf(jlong tag) const {
        if (tag < kTagBase || tag - kTagBase >= static_cast<jlong>(size)) return -1;
        return tag - kTagBase;
    }

    // A new node, or kNoNode with cutOff set. malloc, not new: a failed allocation must end the
    // walk, not the JVM (-fno-exceptions turns std::bad_alloc into abort()).
    uint32_t add() {
        if (size == capacity) {
            if (capacity >= budget) {
                cutOff = PathCutOff::kNodes;
                return kNoNode;
            }
            uint32_t grown = capacity < kFirstGrowth ? kFirstGrowth : (capacity > budget / 2 ? budget : capacity * 2);
            if (grown > budget) grown = budget;
            Node* moved = static_cast<Node*>(std::realloc(nodes, static_cast<size_t>(grown) * sizeof(Node)));
            if (moved == nullptr) {
                cutOff = PathCutOff::kNoMemory;
                return kNoNode;
            }
            nodes = moved;
            capacity = grown;
        }
        nodes[size] = Node{kNoNode, 0, 0, 0, 0};
        return size++;
    }

    jint follow(int depth, bool isClass) {
        if (isClass || depth < maxDepth) return JVMTI_VISIT_OBJECTS;
        depthLimited++;
        return 0;
    }
};

void place(Node& node, uint32_t parent, jvmtiHeapReferenceKind kind, int32_t index, int depth) {
    node.parent = parent;
    node.kind = static_cast<uint8_t>(kind);
    node.index = index;
    node.depth = static_cast<uint16_t>(depth > 0xFFFF ? 0xFFFF : depth);
    node.reached = 1;
}

// Runs inside the walk: no JNI, no JVMTI, no locks; only the node table.
jint JNICALL onReference(jvmtiHeapReferenceKind kind, const jvmtiHeapReferenceInfo* info, jlong classTag, jlong,
                         jlong, jlong* tagPtr, jlong* referrerTagPtr, jint, void* userData) {
    Walk& w = *static_cast<Walk*>(userData);
    if (w.firstReference == 0) w.firstReference = monotonicNanos();
    if (++w.references % kClockEvery == 0 && monotonicNanos() > w.deadline) {
        w.cutOff = PathCutOff::kTime;
        return JVMTI_VISIT_ABORT;
    }
    uint32_t parent = kNoNode;
    int32_t index = 0;
    int depth = 0;
    if (isRoot(kind)) {
        // Locals name their thread: it was reported (and tagged) as a root just before its stack.
        if (kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL || kind == JVMTI_HEAP_REFERENCE_JNI_LOCAL) {
            bool stack = kind == JVMTI_HEAP_REFERENCE_STACK_LOCAL;
            int64_t thread = w.nodeOf(stack ? info->stack_local.thread_tag : info->jni_local.thread_tag);
            parent = thread >= 0 ? static_cast<uint32_t>(thread) : kNoNode;
            index = stack ? info->stack_local.depth : info->jni_local.depth;
        }
    } else {
        int64_t referrer = referrerTagPtr == nullptr ? -1 : w.nodeOf(*referrerTagPtr);
        if (referrer < 0) return 0;  // not reached by this walk: cannot happen, but never guess
        parent = static_cast<uint32_t>(referrer);
        if (kind == JVMTI_HEAP_REFERENCE_FIELD || kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD) {
            index = info->field.index;
        } else if (kind == JVMTI_HEAP_REFERENCE_ARRAY_ELEMENT) {
            index = info->array.index;
        }
        depth = kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD ? 1 : w.nodes[parent].depth + 1;
    }
    bool isClass = classTag == kClassClassTag;
    if (*tagPtr != 0) {
        int64_t known = w.nodeOf(*tagPtr);
        if (known < 0 || static_cast<uint32_t>(known) == parent) return 0;  // java.lang.Class, a self-reference
        Node& node = w.nodes[known];
        if (!node.reached) {
            place(node, parent, kind, index, depth);  // a target
            if (--w.targetsLeft == 0) return JVMTI_VISIT_ABORT;  // every target has its chain
            return w.follow(depth, isClass);
        }
        if (depth < node.depth) {
            // A shorter way to an object seen before. Depths strictly fall towards the root along
            // every chain (static fields start again at 1, and chains end there), so no cycle forms.
            place(node, parent, kind, index, depth);
            return w.follow(depth, isClass);  // followed now if it was too deep before
        }
        return 0;
    }
    uint32_t id = w.add();
    if (id == kNoNode) return JVMTI_VISIT_ABORT;
    place(w.nodes[id], parent, kind, index, depth);
    *tagPtr = kTagBase + id;
    return w.follow(depth, isClass);
}

// Memory JVMTI hands out, given back with Deallocate on every way out.
template <typename T>
class JvmtiMemory {
  public:
    explicit JvmtiMemory(jvmtiEnv* jvmti) : jvmti_(jvmti) {}
    JvmtiMemory(const JvmtiMemory&) = delete;
    JvmtiMemory& operator=(const JvmtiMemory&) = delete;
    ~JvmtiMemory() {
        if (p_ != nullptr) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(p_));
    }
    T** out() { return &p_; }
    T* get() const { return p_; }

  private:
    jvmtiEnv* jvmti_;
    T* p_ = nullptr;
};

std::string classSignature(jvmtiEnv* jvmti, jclass klass) {
    JvmtiMemory<char> signature(jvmti);
    if (klass == nullptr || jvmti->GetClassSignature(klass, signature.out(), nullptr) != JVMTI_ERROR_NONE) {
        return "L[unknown class];";
    }
    return std::string(signature.get());
}

std::string threadName(jvmtiEnv* jvmti, jobject thread) {
    jvmtiThreadInfo info{};
    if (thread == nullptr || jvmti->GetThreadInfo(static_cast<jthread>(thread), &info) != JVMTI_ERROR_NONE) {
        return std::string();
    }
    std::string name(info.name != nullptr ? info.name : "");
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(info.name));
    return name;
}

// The targets' strong local references: dropped once they are tagged (a local reference would make
// every target a "JNI local" root of this thread), or on any way out before that.
class TargetRefs {
  public:
    TargetRefs(JNIEnv* jni, jobject* targets, int count) : jni_(jni), targets_(targets), count_(count) {}
    TargetRefs(const TargetRefs&) = delete;
    TargetRefs& operator=(const TargetRefs&) = delete;
    ~TargetRefs() { drop(); }

    void drop() {
        for (int i = 0; i < count_; i++) {
            if (targets_[i] != nullptr) jni_->DeleteLocalRef(targets_[i]);
            targets_[i] = nullptr;
        }
    }

  private:
    JNIEnv* jni_;
    jobject* targets_;
    int count_;
};

// The walk's own JVMTI environment and what is held while it runs: disposing the environment drops
// every tag the walk set and gives can_tag_objects back; the local reference to java.lang.Class and
// the local frame of the resolved objects go with it. Released in reverse order on every way out.
class WalkEnvironment {
  public:
    explicit WalkEnvironment(JNIEnv* jni) : jni_(jni) {}
    WalkEnvironment(const WalkEnvironment&) = delete;
    WalkEnvironment& operator=(const WalkEnvironment&) = delete;
    ~WalkEnvironment() {
        if (framePushed_) jni_->PopLocalFrame(nullptr);
        if (classClass_ != nullptr) jni_->DeleteLocalRef(classClass_);
        if (jvmti_ != nullptr) jvmti_->DisposeEnvironment();
    }

    // A new environment with can_tag_objects; false with error set if the JVM has none to give.
    bool open(std::string& error) {
        JavaVM* vm = nullptr;
        if (jni_->GetJavaVM(&vm) != JNI_OK || vm->GetEnv(reinterpret_cast<void**>(&jvmti_), JVMTI_VERSION_11) != JNI_OK) {
            jvmti_ = nullptr;
            error = "no JVMTI environment for the heap walk";
            return false;
        }
        jvmtiCapabilities caps{};
        caps.can_tag_objects = 1;
        if (jvmti_->AddCapabilities(&caps) != JVMTI_ERROR_NONE) {
            error = "JVMTI refused can_tag_objects, which the heap walk needs";
            return false;
        }
        return true;
    }

    // Tags java.lang.Class, so the callback's class_tag tells class objects apart.
    void tagClassClass() {
        classClass_ = jni_->FindClass("java/lang/Class");
        if (classClass_ != nullptr) {
            jvmti_->SetTag(classClass_, kClassClassTag);
        } else {
            jni_->ExceptionClear();  // cannot happen; without it class objects are followed only to maxDepth
        }
    }

    // Room for the local references of the resolved objects; false if the JVM has none.
    bool pushFrame(jint capacity) {
        framePushed_ = jni_->PushLocalFrame(capacity) == JNI_OK;
        if (!framePushed_ && jni_->ExceptionCheck()) {
            jni_->ExceptionClear();
        }
        return framePushed_;
    }

    jvmtiEnv* jvmti() const { return jvmti_; }
    jclass classClass() const { return classClass_; }

  private:
    JNIEnv* jni_;
    jvmtiEnv* jvmti_ = nullptr;
    jclass classClass_ = nullptr;
    bool framePushed_ = false;
};

// The live threads, and the frames on their stacks estimated from an even sample of them. Reading
// one stack's depth is a handshake with that thread alone; nothing else stops.
struct Stacks {
    int64_t threads = 0;
    int64_t frames = 0;
};

Stacks countStacks(jvmtiEnv* jvmti, JNIEnv* jni) {
    Stacks stacks;
    jint count = 0;
    jthread* threads = nullptr;
    if (jvmti->GetAllThreads(&count, &threads) != JVMTI_ERROR_NONE || threads == nullptr) return stacks;
    int step = count > kDepthSamples ? count / kDepthSamples : 1;
    int64_t sampled = 0;
    int64_t depths = 0;
    for (jint i = 0; i < count; i++) {
        jint depth = 0;
        if (i % step == 0 && sampled < kDepthSamples && jvmti->GetFrameCount(threads[i], &depth) == JVMTI_ERROR_NONE) {
            sampled++;
            depths += depth;
        }
        jni->DeleteLocalRef(threads[i]);
    }
    jvmti->Deallocate(reinterpret_cast<unsigned char*>(threads));
    stacks.threads = count;
    stacks.frames = sampled == 0 ? 0 : (depths * count + sampled - 1) / sampled;
    return stacks;
}

std::string millis(int64_t nanos) {
    char text[32];
    std::snprintf(text, sizeof text, "%lld ms", static_cast<long long>((nanos + 999'999) / 1'000'000));
    return text;
}

// Gives each target a node (0..count-1, in order) and its tag. Returns how many were tagged.
int tagTargets(jvmtiEnv* jvmti, Walk& w, jobject* targets, int count) {
    int tagged = 0;
    for (int i = 0; i < count; i++) {
        uint32_t id = w.add();
        if (id != kNoNode && jvmti->SetTag(targets[i], kTagBase + id) == JVMTI_ERROR_NONE) tagged++;
    }
    return tagged;
}

// The chains, as node ids from each target up to where its chain ends; wanted gets every node id
// on them and their referrers, as tags, sorted and unique.
std::vector<std::vector<uint32_t>> chainsOf(const Walk& w, int count, std::vector<jlong>& wanted) {
    int maxSteps = w.maxDepth + 64;
    std::vector<std::vector<uint32_t>> chains(count);
    for (int t = 0; t < count; t++) {
        if (static_cast<uint32_t>(t) >= w.size || !w.nodes[t].reached) continue;
        for (uint32_t n = static_cast<uint32_t>(t); n != kNoNode && static_cast<int>(chains[t].size()) < maxSteps;) {
            chains[t].push_back(n);
            wanted.push_back(kTagBase + n);
            const Node& node = w.nodes[n];
            if (node.parent != kNoNode) wanted.push_back(kTagBase + node.parent);
            n = endsChain(node.kind) ? kNoNode : node.parent;
        }
    }
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    return chains;
}

// Chains are written target first. Per step: the object's class signature, whether the object is
// itself a class, the reference into it (kind, index), the field's name for field references,
// and for the step that ends a chain the holder: the class of a static field, a local's thread.
struct Resolver {
    jvmtiEnv* jvmti;
    JNIEnv* jni;
    jclass classClass;
    std::unordered_map<jlong, jobject> byTag;

    // Local references to the objects of the wanted tags, in the environment's frame (pushed here);
    // without room for them the steps are written unnamed.
    void resolve(WalkEnvironment& env, const std::vector<jlong>& wanted) {
        if (wanted.empty() || !env.pushFrame(static_cast<jint>(wanted.size()) * 4 + 64)) return;
        jint found = 0;
        JvmtiMemory<jobject> objects(jvmti);
        JvmtiMemory<jlong> tags(jvmti);
        if (jvmti->GetObjectsWithTags(static_cast<jint>(wanted.size()), wanted.data(), &found, objects.out(), tags.out()) ==
            JVMTI_ERROR_NONE) {
            for (jint i = 0; i < found; i++) byTag.emplace(tags.get()[i], objects.get()[i]);
        }
    }

    jobject objectOf(uint32_t node) const {
        auto it = byTag.find(kTagBase + node);
        return it == byTag.end() ? nullptr : it->second;  // null: collected since the walk
    }

    PathStepRecord step(const Node& node, uint32_t self) const {
        jobject object = objectOf(self);
        bool isClass = object != nullptr && classClass != nullptr && jni->IsInstanceOf(object, classClass);
        std::string signature = object == nullptr ? "L[collected since the walk];"
                                                  : classSignature(jvmti, isClass ? static_cast<jclass>(object) : jni->GetObjectClass(object));
        jobject referrer = node.parent == kNoNode ? nullptr : objectOf(node.parent);
        std::string field;
        std::string holder;
        if (referrer != nullptr && node.kind == JVMTI_HEAP_REFERENCE_FIELD) {
            field = FieldNames::name(jvmti, jni, jni->GetObjectClass(referrer), node.index);
        } else if (referrer != nullptr && node.kind == JVMTI_HEAP_REFERENCE_STATIC_FIELD) {
            field = FieldNames::name(jvmti, jni, static_cast<jclass>(referrer), node.index);
            holder = classSignature(jvmti, static_cast<jclass>(referrer));
        } else if (referrer != nullptr && isRoot(node.kind)) {
            holder = threadName(jvmti, referrer);
        } else if (object != nullptr && node.kind == JVMTI_HEAP_REFERENCE_THREAD) {
            holder = threadName(jvmti, object);
        }
        return PathStepRecord{signature, isClass, node.kind, node.index, field, holder};
    }
};

}  // namespace

bool ReferencePaths::find(JNIEnv* jni, jobject* targets, int count, const PathSearchLimits& limits, ByteWriter& out,
                          std::string& error) {
    if (count < 0 || count > kMaxTargets) count = count < 0 ? 0 : kMaxTargets;
    TargetRefs targetRefs(jni, targets, count);
    std::unique_lock<std::mutex> oneAtATime(oneWalk, std::try_to_lock);
    if (!oneAtATime.owns_lock()) {
        error = "a reference path search is already running in this JVM";
        return false;
    }
    WalkEnvironment env(jni);
    if (!env.open(error)) {
        return false;
    }
    jvmtiEnv* jvmti = env.jvmti();
    Stacks stacks = countStacks(jvmti, jni);
    int64_t modelled = RootScanCost::model(stacks.threads, stacks.frames);
    int64_t expected = RootScanCost::estimate(stacks.threads, stacks.frames, rootScanScale.load());
    if (RootScanCost::refuses(expected, limits.timeLimitNanos)) {
        error = "the heap walk would pause the application for about " + millis(expected) + " before it could look at one"
                " reference (the JVM first walks every frame of its " + std::to_string(stacks.threads) + " threads, about " +
                std::to_string(stacks.frames) + " frames), more than the time limit of " + millis(limits.timeLimitNanos) +
                ": give a time limit above that (at most 10s), or ask when fewer threads run";
        return false;
    }

    Walk w;
    w.budget = limits.nodeBudget < static_cast<uint32_t>(count) + 1 ? count + 1 : limits.nodeBudget;
    w.maxDepth = limits.maxDepth < 1 ? 1 : (limits.maxDepth > kMaxPathDepth ? kMaxPathDepth : limits.maxDepth);
    w.targetsLeft = tagTargets(jvmti, w, targets, count);
    targetRefs.drop();  // only tags hold the targets now: a local reference would be a root of its own
    env.tagClassClass();

    int64_t start = monotonicNanos();
    w.deadline = start + limits.timeLimitNanos;
    jvmtiHeapCallbacks callbacks{};
    callbacks.heap_reference_callback = onReference;
    jvmtiError err = w.targetsLeft == 0 ? JVMTI_ERROR_NONE : jvmti->FollowReferences(0, nullptr, nullptr, &callbacks, &w);
    int64_t walkNanos = monotonicNanos() - start;
    if (w.firstReference != 0) {
        rootScanScale.store(RootScanCost::rescale(rootScanScale.load(), modelled, w.firstReference - start));
    }
    if (err != JVMTI_ERROR_NONE) {
        error = "FollowReferences failed with JVMTI error " + std::to_string(err);
        return false;
    }

    std::vector<jlong> wanted;
    std::vector<std::vector<uint32_t>> chains = chainsOf(w, count, wanted);
    int64_t resolveStart = monotonicNanos();
    Resolver resolver{jvmti, jni, env.classClass(), {}};
    resolver.resolve(env, wanted);
    PathSearchWriter writer(out);
    writer.found({static_cast<uint8_t>(w.cutOff), w.size, w.references, w.depthLimited, static_cast<uint64_t>(walkNanos),
                  static_cast<uint32_t>(count)});
    for (const std::vector<uint32_t>& chain : chains) {
        writer.chain(chain.size());
        for (uint32_t n : chain) {
            writer.step(resolver.step(w.nodes[n], n));
        }
    }
    writer.resolved(static_cast<uint64_t>(monotonicNanos() - resolveStart));
    return true;  // the environment's release drops every tag of this walk and gives can_tag_objects back
}
