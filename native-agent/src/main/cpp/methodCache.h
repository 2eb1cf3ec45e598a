// Names of methods, resolved the first time a method is seen in a sampled stack.
//
// A jmethodID goes stale when its class is unloaded; touching it then can crash the JVM (the
// async-profiler crashes #974, #831, #1794). So names and line tables are resolved while the
// method is certainly alive (its frame is on the sampling thread's stack) and kept here; a dump
// only reads this cache and never passes a jmethodID back to JVMTI.
#pragma once
#include <jvmti.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "limits.h"
#include "snapshotWriter.h"

struct MethodInfo {
    std::string classSignature;  // e.g. "Ljava/util/ArrayList;"
    std::string name;
    std::string sourceFile;      // empty when unknown
    std::vector<std::pair<int32_t, int32_t>> lines;  // (start bci, line), sorted by bci
};

class MethodCache {
  public:
    explicit MethodCache(uint32_t maxMethods) : maxMethods_(maxMethods) {}

    // The most methods kept from now on (those kept already stay).
    void limit(uint32_t maxMethods);

    // Makes sure every method in frames[0..count) is resolved (or counted as unresolvable).
    void resolveAll(jvmtiEnv* jvmti, const jvmtiFrameInfo* frames, int32_t count);

    // Index of a resolved method, or kNone.
    uint32_t indexOf(jmethodID method);

    // Writes all methods in index order; string fields go through the caller's string pool.
    template <typename Intern>
    void write(SnapshotWriter& out, Intern intern);

    uint64_t unresolved() const { return unresolved_; }
    struct Sizes {
        uint64_t methods, nameBytes, lineEntries;  // nameBytes: class signature, name and source file
    };
    Sizes sizes();
    uint64_t memoryBytes();
    void clear();

  private:
    static bool resolve(jvmtiEnv* jvmti, jmethodID method, MethodInfo& info);

    uint32_t maxMethods_;
    std::mutex lock_;
    std::unordered_map<jmethodID, uint32_t> index_;
    std::vector<MethodInfo> methods_;
    uint64_t unresolved_ = 0;
};

template <typename Intern>
void MethodCache::write(SnapshotWriter& out, Intern intern) {
    std::lock_guard<std::mutex> guard(lock_);
    out.count(methods_.size());
    for (const MethodInfo& m : methods_) {
        out.method(intern(m.classSignature), intern(m.name), m.sourceFile.empty() ? kNone : intern(m.sourceFile), m.lines.size());
        for (const auto& line : m.lines) {
            out.line(line.first, line.second);
        }
    }
}
