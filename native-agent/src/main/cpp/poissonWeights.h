// JVMTI samples allocations as a Poisson process over allocated bytes with mean interval R:
// an object of size s is sampled with probability p = 1 - exp(-s/R). Weighting each sample by
// 1/p (objects) and s/p (bytes) makes the sums unbiased estimates of what was allocated.
// Unlike async-profiler's max(size, interval), this is exact for objects near s = R.
#pragma once
#include <cmath>
#include <cstdint>

struct PoissonWeight {
    double objects;
    double bytes;
};

inline PoissonWeight poissonWeight(int64_t size, int64_t interval) {
    if (interval <= 0 || size <= 0) {
        return {1.0, static_cast<double>(size > 0 ? size : 0)};
    }
    double p = -std::expm1(-static_cast<double>(size) / static_cast<double>(interval));
    if (!(p > 0.0)) {
        p = 1e-300;  // unreachable for size > 0; keeps the division finite
    }
    return {1.0 / p, static_cast<double>(size) / p};
}
