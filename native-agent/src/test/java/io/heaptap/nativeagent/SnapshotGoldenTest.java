package io.heaptap.nativeagent;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveHold;
import io.heaptap.profile.Markings;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.SnapshotDecoder;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot of fixed content, written by the agent's own SnapshotWriter (src/test/cpp/
 * goldenSnapshot.cpp, built here with the compiler that builds the library), decoded by
 * SnapshotDecoder and compared line by line with a checked-in rendering. A layout change made on
 * one side only fails here. After an intended change, regenerate the expected file with
 * {@code -Dheaptap.updateGolden=true} and review its diff.
 */
class SnapshotGoldenTest {
    private static final Path EXPECTED = Path.of("src/test/resources/io/heaptap/nativeagent/snapshot-golden.txt");
    /** The agent's clock at the snapshot is 1,000 s; objects allocated before 999 s are proven live. */
    private static final LiveProof PROOF = new LiveProof(999_000_000_000L, Markings.NONE, false, false, 1L << 20, 1L << 30,
            LiveHold.NONE.withPolicy(0.015, true, "ZGC (generational)"));

    @TempDir
    Path work;

    @Test
    void decodesTheNativeWritersSnapshotAsCheckedIn() throws Exception {
        byte[] bytes = GoldenProgram.build("goldenSnapshot.cpp", work).output();
        NativeSnapshot s = NativeSnapshot.read(new ByteArrayInputStream(bytes), LiveFilter.NONE, PROOF);
        GoldenProgram.assertMatches(EXPECTED, render(s));
    }

    static String render(NativeSnapshot s) {
        List<String> lines = new ArrayList<>();
        lines.add("generation " + s.generation() + ", interval " + s.intervalBytes() + " bytes, depth " + s.stackDepth());
        lines.add("samples " + s.samples());
        lines.add(s.drops().toString());
        lines.add(s.live().toString());
        for (AllocationSite site : s.sites()) {
            lines.add("site " + site.type() + " samples=" + site.samples() + " objects=" + site.estimatedObjects() + " bytes="
                    + site.estimatedBytes() + " variances=" + site.objectsVariance() + "/" + site.bytesVariance() + " truncated="
                    + site.truncated());
            for (Frame f : site.stack()) {
                lines.add("  at " + f);
            }
            lines.add("  live " + site.live());
        }
        return String.join("\n", lines) + "\n";
    }
}
