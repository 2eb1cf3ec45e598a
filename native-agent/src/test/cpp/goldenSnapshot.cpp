// Writes a snapshot of fixed content to stdout, through the agent's own SnapshotWriter.
//
// Why: SnapshotGoldenTest decodes it with SnapshotDecoder and compares the result with a
// checked-in rendering, so a change on either side of the format that the other side does not
// follow fails a test in seconds instead of a capture in a real JVM. Every value differs from its
// neighbours, so two fields swapped or one skipped show in the rendering. Built and run by the test.
#include <cstdio>
#include <string>
#include <vector>

#include "limits.h"
#include "snapshotWriter.h"

int main() {
    const std::vector<std::string> names = {
        "Lapp/Main;", "main", "Main.java",                  // 0-2
        "Ljava/util/ArrayList;", "grow", "ArrayList.java",  // 3-5
        "[B", "Lapp/Caf\xc3\xa9;", "[Ljava/lang/Object;",   // 6-8: a name outside ASCII
    };
    std::vector<const std::string*> pool;
    for (const std::string& s : names) pool.push_back(&s);

    ByteWriter out;
    SnapshotWriter w(out);
    w.header(42, 65536, 64);
    w.strings(pool);
    w.counters({7, 1, 2, 3, 4, 5, 6, 8});

    w.count(3);  // methods
    w.method(0, 1, 2, 2);
    w.line(0, 10);
    w.line(5, 12);
    w.method(3, 4, 5, 1);
    w.line(0, 200);
    w.method(7, 1, kNone, 0);  // no source file, no line table

    w.count(4);  // frames
    w.frame(1, 3);      // ArrayList.grow, line 200
    w.frame(0, 6);      // Main.main, line 12
    w.frame(kNone, 0);  // a method that could not be resolved
    w.frame(2, 1);      // Café.main, no line

    w.count(2);  // stacks
    w.stack(false, 2);
    w.stackFrame(0);
    w.stackFrame(1);
    w.stack(true, 3);
    w.stackFrame(2);
    w.stackFrame(3);
    w.stackFrame(1);

    w.count(3);  // sites
    w.site({0, 8, 3, 12.5, 4096.25, 1.5, 2.5});
    w.site({1, 6, 2, 2.0, 1.0e6, 0.125, 0.375});
    w.site({kNone, 6, 9, 4.0, 64.0, 0.25, 0.75});  // samples kept without their stack

    const int64_t now = 1000000000000;
    w.live({now, true, 4096, 0.5, 11, 12, 13, 14, 15, 16, 17, 18, 8388608, 3145744, 3145800, 19, 20, 21, 22, 23, 65536.0, 3});
    w.liveEntry({0, 24, 2.0, 48.0, 5000000000, 3, false});    // older than the proof: proven live
    w.liveEntry({1, 3145744, 1.0, 3145744.0, 500000000, 0, true});  // younger: not yet examined, large
    w.liveEntry({0, 32, 2.0, 64.0, 2000000000, 1, false});
    w.letGoCount(1);
    w.letGo({2, 4.0, 256.0, 1.5, 0.75, 96.0, 3072.0});  // a site whose every tracked object was let go

    const Bytes& bytes = out.bytes();
    return std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size() ? 0 : 1;
}
