// Monotonic nanoseconds, the clock of the time box (never jumps with wall-clock changes).
#pragma once
#include <cstdint>

int64_t monotonicNanos();
