// What FollowReferences costs before its first reference, with every application thread stopped.
//
// Before HotSpot reports a single root it runs an escape barrier (EscapeBarrier::
// deoptimize_objects_all_threads, JDK 13+ with C2 or JVMCI): it suspends every Java thread and walks
// every frame of every stack, so objects scalar-replaced by the JIT exist on the heap for the walk.
// No callback runs meanwhile, so the walk's deadline cannot cut it short. It grows with the frames on
// all stacks: 2,000 threads parked 51 frames deep paused the application 1.3-1.7 s (JDK 17 and 25)
// before the first root, where a walk of 100 ms was asked for. So the cost is estimated from the
// thread count and a sample of stack depths before walking, and a walk it does not fit is refused.
//
// The per-thread and per-frame figures were measured on 2 busy shared cores (about 40-140 us a
// thread and 12-13 us a frame); a faster host is seen by the first walk: each walk measures its own
// time to the first reference and scales later estimates by it, within [kMinScale, kMaxScale].
#pragma once
#include <cstdint>

struct RootScanCost {
    static constexpr int64_t kNanosPerThread = 50'000;
    static constexpr int64_t kNanosPerFrame = 10'000;
    // Shorter times to the first root say little: the safepoint and the walk's setup dominate them.
    static constexpr int64_t kMinMeasured = 10'000'000;
    // An estimate this small is never refused: a few threads cost less than the walk's own setup, and
    // a time limit under it (1 ms) still cuts the walk itself off.
    static constexpr int64_t kNegligible = 20'000'000;
    static constexpr int32_t kMinScalePermille = 250;
    static constexpr int32_t kMaxScalePermille = 4000;

    // Whether a walk with this estimate cannot keep the time limit.
    static bool refuses(int64_t estimate, int64_t timeLimit) { return estimate > timeLimit && estimate > kNegligible; }

    // The unscaled estimate for threads whose stacks hold frames in all.
    static int64_t model(int64_t threads, int64_t frames) { return threads * kNanosPerThread + frames * kNanosPerFrame; }

    // The estimate scaled by what earlier walks measured (permille of the model).
    static int64_t estimate(int64_t threads, int64_t frames, int32_t scalePermille) {
        return model(threads, frames) / 1000 * scalePermille;
    }

    // The scale a walk's measured time to its first reference implies, or current when it says little.
    static int32_t rescale(int32_t current, int64_t modelled, int64_t measured) {
        if (modelled < kMinMeasured || measured < kMinMeasured) return current;
        int64_t permille = measured / (modelled / 1000 > 0 ? modelled / 1000 : 1);
        if (permille < kMinScalePermille) return kMinScalePermille;
        if (permille > kMaxScalePermille) return kMaxScalePermille;
        return static_cast<int32_t>(permille);
    }
};
