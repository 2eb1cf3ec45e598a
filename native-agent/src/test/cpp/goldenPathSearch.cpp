// Writes a reference-path search result of fixed content to stdout, through the agent's own
// PathSearchWriter; with the argument "refused", a refusal instead.
//
// Why: PathSearchGoldenTest decodes it with PathSearchDecoder and compares the result with a
// checked-in rendering, as SnapshotGoldenTest does for the snapshot: a layout change made on one side
// only fails in seconds, not in a heap walk of a real JVM. Values differ from their neighbours, so
// two fields swapped or one skipped show in the rendering. Built and run by the test. The JVMTI
// constants are written as numbers: this program is built without the JDK's headers.
#include <cstdio>
#include <cstring>
#include <string>

#include "snapshotWriter.h"

int main(int argc, char** argv) {
    ByteWriter out;
    PathSearchWriter w(out);
    if (argc > 1 && std::strcmp(argv[1], "refused") == 0) {
        w.refused("a reference path search is already running in this JVM");
    } else {
        w.found({1 /* PathCutOff::kTime */, 70000, 123456, 789, 2500000, 4});
        w.chain(3);  // target first: a static field holds a list whose array holds the target
        w.step({"Lapp/Caf\xc3\xa9;", false, 3 /* ARRAY_ELEMENT */, 17, "", ""});
        w.step({"[Ljava/lang/Object;", false, 2 /* FIELD */, 5, "elementData", ""});
        w.step({"Ljava/util/ArrayList;", false, 8 /* STATIC_FIELD */, 2, "LIST", "Lapp/Holder;"});
        w.chain(0);  // not reached before the cut-off
        w.chain(1);  // held by a local variable of a thread
        w.step({"[B", false, 24 /* STACK_LOCAL */, 4, "", "worker-1"});

        w.chain(1);  // a class object, held as a system class
        w.step({"Lapp/Config;", true, 22 /* SYSTEM_CLASS */, 0, "", ""});
        w.resolved(31000);
    }
    const Bytes& bytes = out.bytes();
    return std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size() ? 0 : 1;
}
