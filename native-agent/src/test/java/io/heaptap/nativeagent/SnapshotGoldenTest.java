package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.Markings;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
    private static final LiveProof PROOF = new LiveProof(999_000_000_000L, Markings.NONE, false, false, 1L << 20, 1L << 30);

    @TempDir
    Path work;

    @Test
    void decodesTheNativeWritersSnapshotAsCheckedIn() throws Exception {
        NativeSnapshot s = NativeSnapshot.read(new ByteArrayInputStream(goldenBytes()), LiveFilter.NONE, PROOF);
        String rendered = render(s);
        if (Boolean.getBoolean("heaptap.updateGolden")) {
            Files.writeString(EXPECTED, rendered, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(EXPECTED, StandardCharsets.UTF_8), rendered);
    }

    private byte[] goldenBytes() throws IOException, InterruptedException {
        Path exe = work.resolve("golden-snapshot");
        String cxx = System.getenv().getOrDefault("CXX", "g++");
        run(List.of(cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fno-exceptions", "-fno-rtti", "-Isrc/main/cpp", "-o",
                exe.toString(), "src/test/cpp/goldenSnapshot.cpp", "src/main/cpp/pageAllocator_linux.cpp"), null);
        Path out = work.resolve("snapshot.bin");
        run(List.of(exe.toString()), out);
        return Files.readAllBytes(out);
    }

    private static void run(List<String> command, Path stdout) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(stdout == null);
        if (stdout != null) {
            pb.redirectOutput(stdout.toFile());
        }
        Process p = pb.start();
        String messages = stdout == null ? new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : "";
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " failed:\n" + messages);
        }
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
