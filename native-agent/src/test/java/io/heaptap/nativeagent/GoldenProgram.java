package io.heaptap.nativeagent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A program of src/test/cpp built with the compiler that builds the agent (g++, or {@code CXX}) against
 * the agent's own writers, and run for the bytes it writes: what the golden tests decode.
 */
final class GoldenProgram {
    private final Path exe;

    private GoldenProgram(Path exe) {
        this.exe = exe;
    }

    /** Builds src/test/cpp/{@code source} (with the page allocator the writers need) into work. */
    static GoldenProgram build(String source, Path work) throws IOException, InterruptedException {
        Path exe = work.resolve(source.replace(".cpp", ""));
        String cxx = System.getenv().getOrDefault("CXX", "g++");
        run(List.of(cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fno-exceptions", "-fno-rtti", "-Isrc/main/cpp", "-o",
                exe.toString(), "src/test/cpp/" + source, "src/main/cpp/pageAllocator_linux.cpp"), null);
        return new GoldenProgram(exe);
    }

    /** What the program writes to stdout when run with the given arguments. */
    byte[] output(String... args) throws IOException, InterruptedException {
        Path out = Files.createTempFile(exe.getParent(), "golden", ".bin");
        List<String> command = new ArrayList<>();
        command.add(exe.toString());
        command.addAll(List.of(args));
        run(command, out);
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

    /** Compares rendered with the checked-in file; {@code -Dheaptap.updateGolden=true} rewrites the file first. */
    static void assertMatches(Path expected, String rendered) throws IOException {
        if (Boolean.getBoolean("heaptap.updateGolden")) {
            Files.writeString(expected, rendered, StandardCharsets.UTF_8);
        }
        org.junit.jupiter.api.Assertions.assertEquals(Files.readString(expected, StandardCharsets.UTF_8), rendered);
    }
}
