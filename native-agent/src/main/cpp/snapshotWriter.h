// The snapshot format: the one channel from the native tables to Java (SnapshotDecoder.java); and
// the result of a reference-path search (PathSearchDecoder.java), the other thing the agent writes.
//
// Why one file: the format used to be written piecemeal by four files, with its version a bare
// number on each side. Every byte of it is now written through SnapshotWriter, in the order
// SnapshotDecoder reads it; kSnapshotMagic and kSnapshotVersion are compared with the Java side's
// constants by NativeConstantsTest, and SnapshotGoldenTest decodes a snapshot written here against
// a checked-in rendering. Change the layout => bump kSnapshotVersion and SnapshotDecoder.VERSION.
//
// Layout (big-endian, as java.io.DataInputStream reads it; "str" is an index into the strings,
// kNone marks "no entry"):
//   header    magic u32, version u32, generation u64, intervalBytes u64, stackDepth u32
//   strings   count u32, then count modified-UTF-8 strings (u16 length + bytes)
//   counters  samples, dropped, withoutStack, stackError, truncated, afterDeadline, classesDropped,
//             methodsUnresolved: 8 x u64
//   methods   count u32; each: classSignature str, name str, sourceFile str|kNone, lines u32,
//             then lines x (startBci u32, line u32)
//   frames    count u32; each: method u32|kNone, bci u32
//   stacks    count u32; each: truncated u8, length u32, then length x frame u32
//   sites     count u32; each: stack u32|kNone, type str, samples u64, objects f64, bytes f64,
//             objectsVariance f64, bytesVariance f64
//   live      nowNanos u64, enabled u8, budget u32, keep f64, admitted, skipped, thinnings,
//             thinnedEntries, died, refFailures, weakRefs, gcEpoch: 8 x u64,
//             byteBudget, unexaminedBytes, trackedBytes, byteThinnings, byteThinnedEntries, oversize,
//             releases, releasedEntries: 8 x u64, theta f64 (0: no byte thinning), count u32; each entry:
//             site u32, size u64, objects f64, bytes f64, ageNanos u64, gcsSurvived u64, large u8
//   letGo     count u32; each (sites in ascending order): site u32, unitObjects f64, unitBytes f64,
//             releasedObjects f64, releasedObjectsVariance f64, releasedBytes f64,
//             releasedBytesVariance f64 (SiteLetGo, liveTable.h)
//
// Version 4 dropped the sites' raw sampled bytes (written since version 1, never read). Version 5 added
// what the live table holds back (the byte bound, liveTable.h). Version 6 added what each site let go.
//
// A reference-path search's result (ReferencePaths::find, referencePaths0 in agent.cpp), checked by
// PathSearchGoldenTest the same way:
//   status    u8: 1 found, then the result; 0 refused, then message (modified UTF-8)
//   result    cutOff u8 (PathCutOff), objects u32, references u64, depthLimited u64, walkNanos u64,
//             targets u32; each target: steps u32 (0: not reached), then per step, target first:
//             classSignature utf, isClass u8, kind u8 (jvmtiHeapReferenceKind), index u32, field utf,
//             holder utf (the class of a static field, the thread of a local; else empty);
//             then resolveNanos u64
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "byteWriter.h"

constexpr uint32_t kSnapshotMagic = 0x48544150u;  // "HTAP"
constexpr uint32_t kSnapshotVersion = 6;

struct SnapshotCounters {
    uint64_t samples, dropped, withoutStack, stackError, truncated, afterDeadline, classesDropped, methodsUnresolved;
};

struct SnapshotSite {
    uint32_t stack, type;
    uint64_t samples;
    double objects, bytes, objectsVariance, bytesVariance;
};

struct SnapshotLiveHeader {
    int64_t nowNanos;  // CLOCK_MONOTONIC, the clock of System.nanoTime(): ages relate to the reader's clock
    bool enabled;
    uint32_t budget;
    double keep;
    uint64_t admitted, skipped, thinnings, thinnedEntries, died, refFailures, weakRefs, gcEpoch;
    int64_t byteBudget, unexaminedBytes, trackedBytes;
    uint64_t byteThinnings, byteThinnedEntries, oversize, releases, releasedEntries;
    double theta;
    uint32_t count;
};

struct SnapshotLiveEntry {
    uint32_t site;
    uint64_t size;
    double objects, bytes;
    uint64_t ageNanos, gcsSurvived;
    bool large;
};

struct SnapshotLetGo {
    uint32_t site;
    double unitObjects, unitBytes, releasedObjects, releasedObjectsVariance, releasedBytes, releasedBytesVariance;
};

struct PathSearchHeader {
    uint8_t cutOff;
    uint32_t objects;
    uint64_t references, depthLimited, walkNanos;
    uint32_t targets;
};

struct PathStepRecord {
    std::string classSignature;
    bool isClass;
    uint8_t kind;
    int32_t index;
    std::string field, holder;
};

// Writes the records of the layout above into a ByteWriter. Sections may be written into separate
// ByteWriters and appended in layout order (the store writes its body before its string pool).
class SnapshotWriter {
  public:
    explicit SnapshotWriter(ByteWriter& out) : out_(out) {}

    void header(uint64_t generation, uint64_t intervalBytes, uint32_t stackDepth) {
        out_.u32(kSnapshotMagic);
        out_.u32(kSnapshotVersion);
        out_.u64(generation);
        out_.u64(intervalBytes);
        out_.u32(stackDepth);
    }
    void strings(const std::vector<const std::string*>& pool) {
        out_.u32(static_cast<uint32_t>(pool.size()));
        for (const std::string* s : pool) out_.utf(*s);
    }
    void counters(const SnapshotCounters& c) {
        for (uint64_t v : {c.samples, c.dropped, c.withoutStack, c.stackError, c.truncated, c.afterDeadline,
                           c.classesDropped, c.methodsUnresolved}) {
            out_.u64(v);
        }
    }
    // Each table (methods, frames, stacks, sites) starts with its count.
    void count(size_t n) { out_.u32(static_cast<uint32_t>(n)); }
    void method(uint32_t classSignature, uint32_t name, uint32_t sourceFile, size_t lines) {
        out_.u32(classSignature);
        out_.u32(name);
        out_.u32(sourceFile);
        out_.u32(static_cast<uint32_t>(lines));
    }
    void line(int32_t startBci, int32_t line) {
        out_.u32(static_cast<uint32_t>(startBci));
        out_.u32(static_cast<uint32_t>(line));
    }
    void frame(uint32_t method, int32_t bci) {
        out_.u32(method);
        out_.u32(static_cast<uint32_t>(bci));
    }
    void stack(bool truncated, uint32_t length) {
        out_.u8(truncated ? 1 : 0);
        out_.u32(length);
    }
    void stackFrame(uint32_t frame) { out_.u32(frame); }
    void site(const SnapshotSite& s) {
        out_.u32(s.stack);
        out_.u32(s.type);
        out_.u64(s.samples);
        out_.f64(s.objects);
        out_.f64(s.bytes);
        out_.f64(s.objectsVariance);
        out_.f64(s.bytesVariance);
    }
    void live(const SnapshotLiveHeader& h) {
        out_.u64(static_cast<uint64_t>(h.nowNanos));
        out_.u8(h.enabled ? 1 : 0);
        out_.u32(h.budget);
        out_.f64(h.keep);
        for (uint64_t v : {h.admitted, h.skipped, h.thinnings, h.thinnedEntries, h.died, h.refFailures, h.weakRefs, h.gcEpoch}) {
            out_.u64(v);
        }
        for (int64_t v : {h.byteBudget, h.unexaminedBytes, h.trackedBytes}) {
            out_.u64(static_cast<uint64_t>(v));
        }
        for (uint64_t v : {h.byteThinnings, h.byteThinnedEntries, h.oversize, h.releases, h.releasedEntries}) {
            out_.u64(v);
        }
        out_.f64(h.theta);
        out_.u32(h.count);
    }
    void liveEntry(const SnapshotLiveEntry& e) {
        out_.u32(e.site);
        out_.u64(e.size);
        out_.f64(e.objects);
        out_.f64(e.bytes);
        out_.u64(e.ageNanos);
        out_.u64(e.gcsSurvived);
        out_.u8(e.large ? 1 : 0);
    }
    void letGoCount(uint32_t count) { out_.u32(count); }
    void letGo(const SnapshotLetGo& g) {
        out_.u32(g.site);
        for (double v : {g.unitObjects, g.unitBytes, g.releasedObjects, g.releasedObjectsVariance, g.releasedBytes,
                         g.releasedBytesVariance}) {
            out_.f64(v);
        }
    }
    // A section written into another ByteWriter, in its place in the layout.
    void append(const ByteWriter& section) { out_.append(section); }

  private:
    ByteWriter& out_;
};

// Writes a reference-path search's result (the second layout above) into a ByteWriter.
class PathSearchWriter {
  public:
    explicit PathSearchWriter(ByteWriter& out) : out_(out) {}

    void refused(const std::string& message) {
        out_.u8(0);
        out_.utf(message);
    }
    void found(const PathSearchHeader& h) {
        out_.u8(1);
        out_.u8(h.cutOff);
        out_.u32(h.objects);
        out_.u64(h.references);
        out_.u64(h.depthLimited);
        out_.u64(h.walkNanos);
        out_.u32(h.targets);
    }
    // Each target's chain starts with its length.
    void chain(size_t steps) { out_.u32(static_cast<uint32_t>(steps)); }
    void step(const PathStepRecord& s) {
        out_.utf(s.classSignature);
        out_.u8(s.isClass ? 1 : 0);
        out_.u8(s.kind);
        out_.u32(static_cast<uint32_t>(s.index));
        out_.utf(s.field);
        out_.utf(s.holder);
    }
    void resolved(uint64_t resolveNanos) { out_.u64(resolveNanos); }

  private:
    ByteWriter& out_;
};
