// Why: before JDK 25 HotSpot's heap sampler is biased per site whenever a thread allocates outside
// its TLAB, and the bias grows with the interval (JDK-8356372; about 0.5% at 8 KiB, 25-40% at
// 512 KiB). So on those JDKs the JVM samples at a small interval R and the agent keeps each JVMTI
// sample of an s-byte object with probability q = p(s, Reff) / p(s, R), p(s, R) = 1 - exp(-s/R):
// a kept object was then included with probability p(s, Reff) exactly, the inclusion of a Poisson
// sampler at the user's interval Reff, and weighs s / p(s, Reff). A dropped sample costs two
// expm1 and a random number here: no stack walk, no lock, no JVMTI call.
//
// The interval may change while a capture runs (the session's sample-rate target). The agent's
// own interval Reff changes at once: the coin above is flipped per sample. The JVM's does not:
// SetHeapSamplingInterval only stores a global, and HotSpot draws each thread's distance to its
// next sample right after a sample, before the callback, with the interval then in force. So a
// sample was governed by the JVM interval current at that thread's previous sample, which is kept
// per thread here (weighting with the current interval was off by threads x the change: -4.4% and
// +5.0% in the research; per thread it stays within noise). When the governing R exceeds Reff
// (Reff was just lowered) the sample is kept and weighs s / p(s, R).
//
// Also here: each thread's first JVMTI sample after sampling is enabled is dropped. Its threshold
// was drawn before this capture (under another interval, or 0 for a thread born while sampling
// was off on JDK 11-24, which samples its first allocation whatever its size).
#pragma once
#include <cmath>
#include <cstdint>

#include "monotonicClock.h"

namespace samplingThinner {

// Uniform in [0, 1) from a per-thread xorshift64*; seeded on first use from the thread's own
// address and the clock, so threads do not share sequences.
inline double uniform() {
    static thread_local uint64_t state = 0;
    if (state == 0) {
        state = (reinterpret_cast<uintptr_t>(&state) * 0x9E3779B97F4A7C15ull) ^ static_cast<uint64_t>(monotonicNanos());
        if (state == 0) state = 0x2545F4914F6CDD1Dull;
    }
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<double>((state * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}

// Keep probability of an s-byte sample taken by the JVM at jvmInterval, for the user's interval.
inline double keepProbability(int64_t size, int64_t jvmInterval, int64_t interval) {
    if (interval <= jvmInterval || size <= 0 || jvmInterval <= 0) {
        return 1.0;
    }
    double s = static_cast<double>(size);
    return std::expm1(-s / static_cast<double>(interval)) / std::expm1(-s / static_cast<double>(jvmInterval));
}

// The JVM interval that governed this thread's sample: the one in force at its previous sample,
// when HotSpot drew the distance to this one. 0 for the thread's first sample in the capture
// (generation), which is to be dropped. Records jvmIntervalNow for the thread's next sample.
inline int64_t governingJvmInterval(uint64_t generation, int64_t jvmIntervalNow) {
    static thread_local uint64_t seen = 0;
    static thread_local int64_t previous = 0;
    int64_t governing = seen == generation ? previous : 0;
    seen = generation;
    previous = jvmIntervalNow;
    return governing;
}

}  // namespace samplingThinner
