// "How is it held?": a reference chain from a GC root (or a class's static field) to each of a few
// sampled objects, found with one JVMTI FollowReferences walk.
//
// Why this shape:
// - The walk runs in its own, short-lived jvmtiEnv with can_tag_objects. Tags are per environment,
//   so disposing that environment drops every tag the walk set in one step (there is no "clear all
//   tags" call, and clearing one by one would need another heap walk), gives the capability back,
//   and leaves the sampling environment untouched.
// - The callback may not call JNI or JVMTI, so during the walk it only records, per reached object,
//   a node: its referrer's node, the reference kind and index, and its depth. The tag of an object
//   is its node id. Names are resolved after the walk from the few nodes on the chains.
// - Targets are held only by their tags during the walk: a JNI local reference would make every
//   target a "JNI local" root of the calling thread.
// - HotSpot's walk is depth-first (a visit stack), so the first path found can be long. A node
//   reached again by a shorter path is re-parented; only depth < maxDepth is followed, except
//   class objects, which are always followed because a static field starts a chain afresh.
// - Everything is bounded: the node table (nodeBudget, failing allocation ends the walk), the
//   time (checked every few hundred references), the depth. Hitting a bound aborts the walk and the
//   chains found so far are still reported, marked as cut off.
// - Before the first root the JVM walks every frame of every thread with all of them stopped, which no
//   callback can cut short; the walk is refused up front when its estimate of that pause (threads and
//   sampled stack depths, rootScanCost.h) does not fit the time limit.
// - What the walk holds (the targets' local references, its environment with the tags, the local
//   reference to java.lang.Class, the frame of resolved objects, JVMTI's buffers) is released by a
//   guard on every way out of find(), never by hand per path.
#pragma once
#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <string>

#include "byteWriter.h"

struct PathSearchLimits {
    int32_t maxDepth = 32;          // references followed from a root or a static field
    uint32_t nodeBudget = 1u << 20; // objects recorded (12 bytes each here, ~50 more in the JVM's tag map)
    int64_t timeLimitNanos = 10'000'000'000LL;
};

// Why a walk stopped before reaching every target.
enum class PathCutOff : uint8_t {
    kNone = 0,
    kTime = 1,
    kNodes = 2,
    kNoMemory = 3,
};

class ReferencePaths {
  public:
    static constexpr int kMaxTargets = 64;

    // Walks from the roots to the targets (strong local references, which this call deletes before
    // walking) and writes the result through PathSearchWriter (snapshotWriter.h) for
    // PathSearchDecoder.java, status byte included. Returns false with error set
    // when the walk could not run at all.
    static bool find(JNIEnv* jni, jobject* targets, int count, const PathSearchLimits& limits, ByteWriter& out,
                     std::string& error);
};
