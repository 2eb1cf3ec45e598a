// Bounds on everything the agent keeps, so native memory never grows without limit.
#pragma once
#include <cstdint>

// The largest values Java may ask for; the Java side states them once too (NativeLimits.java), and
// NativeConstantsTest checks that the two agree.
constexpr int32_t kMaxStackDepth = 2048;  // frames kept per sample
constexpr int32_t kMaxPathDepth = 1024;   // references followed from a root by a reference-path search

struct Limits {
    int32_t maxStackDepth = 64;       // frames captured per sample (1..kMaxStackDepth)
    uint32_t maxStacks = 65536;       // distinct interned stacks
    uint32_t maxFrames = 1u << 20;    // distinct (method, bci) pairs
    uint32_t maxSites = 1u << 18;     // distinct (stack, allocated class) pairs
    uint32_t maxClasses = 1u << 16;   // distinct allocated class names
    uint32_t maxMethods = 1u << 18;   // resolved methods
};

// The other tables scale with the stack budget, so a small one (continuous sampling's, chosen so a
// scrape of a full table fits heaptap's heap budget) bounds them all, whatever classes an application
// keeps generating: sites 4, methods 4, frames 16 and allocated classes 1 per stack, within the
// defaults above and never under the floors below. The default stack budget (65,536) gives the
// defaults.
inline Limits limitsForStacks(int32_t maxStackDepth, uint32_t maxStacks) {
    auto scaled = [](uint64_t want, uint32_t floor, uint32_t ceiling) {
        return static_cast<uint32_t>(want < floor ? floor : (want > ceiling ? ceiling : want));
    };
    Limits limits;
    limits.maxStackDepth = maxStackDepth;
    limits.maxStacks = maxStacks;
    limits.maxSites = scaled(uint64_t{maxStacks} * 4, 4096, limits.maxSites);
    limits.maxMethods = scaled(uint64_t{maxStacks} * 4, 4096, limits.maxMethods);
    limits.maxFrames = scaled(uint64_t{maxStacks} * 16, 16384, limits.maxFrames);
    limits.maxClasses = scaled(maxStacks, 1024, limits.maxClasses);
    return limits;
}

// Marks "no entry" in index fields (no stack, unknown method, no source file).
constexpr uint32_t kNone = 0xFFFFFFFFu;
// The stack of samples whose own stack did not fit the stack or frame table ("[other stacks]").
constexpr uint32_t kOtherStacks = 0xFFFFFFFEu;
