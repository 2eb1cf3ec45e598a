// Bounds on everything the agent keeps, so native memory never grows without limit.
#pragma once
#include <cstdint>

struct Limits {
    int32_t maxStackDepth = 64;       // frames captured per sample (1..2048)
    uint32_t maxStacks = 65536;       // distinct interned stacks
    uint32_t maxFrames = 1u << 20;    // distinct (method, bci) pairs
    uint32_t maxSites = 1u << 18;     // distinct (stack, allocated class) pairs
    uint32_t maxClasses = 1u << 16;   // distinct allocated class names
    uint32_t maxMethods = 1u << 18;   // resolved methods
};

// Marks "no entry" in index fields (no stack, unknown method, no source file).
constexpr uint32_t kNone = 0xFFFFFFFFu;
