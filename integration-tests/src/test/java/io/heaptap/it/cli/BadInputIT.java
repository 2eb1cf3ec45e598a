package io.heaptap.it.cli;

import static io.heaptap.it.support.OneLineErrors.NO_SUCH_PID;
import static io.heaptap.it.support.OneLineErrors.assertOneLineError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.workload.Allocator;

import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of bad input: one line that says what to do, a documented exit code, the target unharmed. */
class BadInputIT {
    static Stream<Arguments> badArguments() {
        return Stream.of(
                Arguments.of(List.of("--duration", "0"), "duration must be positive"),
                Arguments.of(List.of("--duration", "-5s"), "duration must be positive"),
                Arguments.of(List.of("--duration", "soon"), "cannot read 'soon' as a duration"),
                Arguments.of(List.of("--duration", "1s1s"), "give each unit once"),  // issue #34: was 2 s
                Arguments.of(List.of("--duration", "25h"), "above the maximum of 24h"),
                Arguments.of(List.of("--interval", "0"), "interval must be positive"),
                Arguments.of(List.of("--interval", "-1k"), "interval must be positive"),
                Arguments.of(List.of("--interval", "1"), "below the minimum of 4 KiB"),
                Arguments.of(List.of("--rate", "9"), "sample rate must be between 10 and 100000 samples/s, not 9"),
                Arguments.of(List.of("--rate", "fast"), "sample rate must be a whole number of samples per second"),
                Arguments.of(List.of("--rate", "-5"), "sample rate must be a whole number of samples per second"),
                Arguments.of(List.of("--rate", "5000", "--interval", "64k"), "give --interval (a fixed interval) or --rate"),
                Arguments.of(List.of("--depth", "\u0663"), "depth must be a whole number, not '\u0663'"),  // only ASCII digits
                Arguments.of(List.of("--interval", "lots"), "cannot read 'lots' as a size"),
                Arguments.of(List.of("--depth", "0"), "depth must be between 1 and 2048"),
                Arguments.of(List.of("--depth", "3000"), "depth must be between 1 and 2048"),
                Arguments.of(List.of("--depth", "deep"), "depth must be a whole number, not 'deep'"),
                Arguments.of(List.of("--format", "xml"), "unknown format 'xml'"),
                Arguments.of(List.of("--out", "/no/such/folder/p.txt"), "does not exist"),
                Arguments.of(List.of("--out", "/tmp"), "is a directory"),
                Arguments.of(List.of("--out", "profile.data"), "cannot tell the format"),
                Arguments.of(List.of("--live-budget", "0"), "live budget must be between 1 and 1048576"),
                Arguments.of(List.of("--live-budget", "-5"), "live budget must be between 1 and 1048576"),
                Arguments.of(List.of("--live-budget", "99999999"), "live budget must be between 1 and 1048576"),
                Arguments.of(List.of("--min-age", "soon"), "cannot read 'soon' as a duration"),
                Arguments.of(List.of("--min-age", "-1s"), "min age must not be negative"),
                Arguments.of(List.of("--min-gcs", "many"), "invalid value for option '--min-gcs'"),
                Arguments.of(List.of("--min-gcs", "-1"), "min GCs must be 0 or more"));
    }

    /** With a pid that does not exist, exit code 2 (not 3) proves the check came before looking for it. */
    @ParameterizedTest
    @MethodSource("badArguments")
    void badArgumentsAreRefusedBeforeAttaching(List<String> args, String message) {
        String[] cmd = Stream.concat(Stream.of("capture", NO_SUCH_PID), args.stream()).toArray(String[]::new);
        assertOneLineError(HeaptapCli.run(cmd), 2, message);
    }

    @Test
    void dumpChecksItsLiveViewArgumentsToo() {
        assertOneLineError(HeaptapCli.run("dump", NO_SUCH_PID, "--min-age", "yesterday"), 2, "cannot read 'yesterday'");
        assertOneLineError(HeaptapCli.run("dump", NO_SUCH_PID, "--min-gcs", "-3"), 2, "min GCs must be 0 or more");
    }

    @Test
    void aPidThatDoesNotExist() {
        assertOneLineError(HeaptapCli.run("capture", NO_SUCH_PID, "--duration", "1s"), 3, "no process with pid " + NO_SUCH_PID);
    }

    @Test
    void aProcessThatIsNotAJvm() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "300").start();
        try {
            assertOneLineError(HeaptapCli.run("capture", Long.toString(sleep.pid()), "--duration", "1s"), 4,
                    "is not a Java virtual machine");
            assertTrue(sleep.isAlive());
        } finally {
            sleep.destroyForcibly();
        }
    }

    /** Issue #15: a process called java that is not a JVM was killed by the attach signal ("No such process"). */
    @Test
    void aProcessNamedJavaThatIsNotAJvmIsNeverSignalled() throws Exception {
        Path java = Paths.workDir("not-a-jvm").resolve("java");
        Files.copy(Path.of("/bin/sleep"), java);
        java.toFile().setExecutable(true);
        Process notAJvm = new ProcessBuilder(java.toString(), "300").start();
        try {
            assertOneLineError(HeaptapCli.run("capture", Long.toString(notAJvm.pid()), "--duration", "1s"), 4,
                    "is not a HotSpot JVM");
            assertTrue(notAJvm.isAlive(), "not signalled");
        } finally {
            notAJvm.destroyForcibly();
        }
    }

    /**
     * Issue #15, item 8: a capture started by another client (here through the MBean) with escape
     * sequences in its label: heaptap start, status and capture printed them raw to the terminal.
     */
    @Test
    void anotherClientsLabelReachesNoTerminalAsControlCharacters() throws Exception {
        String label = "ops\u001b]0;PWNED\u0007\u001b[2J\u009b31m\u202e" + "x".repeat(500);
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("status", pid).exitCode());  // loads heaptap
            try (JMXConnector jmx = Jmx.local(target.pid())) {
                jmx.getMBeanServerConnection().invoke(Jmx.NAME, "start",
                        new Object[] {"2m", "64k", "", 64, 1024, "true", 1024, "", label}, Jmx.START_ALL);
            }
            Result status = HeaptapCli.run("status", pid);
            assertEquals(0, status.exitCode(), status::toString);
            String startedBy = status.out().lines().filter(l -> l.startsWith("started by:")).findFirst().orElseThrow();
            assertTrue(startedBy.contains("ops\\x1b]0;PWNED\\x07\\x1b[2J\\x9b31m\\u202e"), startedBy);
            assertTrue(startedBy.length() < 250, "the label is cut where it is set: " + startedBy.length() + " characters");
            for (Result r : List.of(status, HeaptapCli.run("start", pid, "--duration", "1s"),
                    HeaptapCli.run("capture", pid, "--duration", "1s"), HeaptapCli.run("dump", pid, "--format", "text"))) {
                String all = r.out() + r.stderr();
                assertTrue(all.codePoints().noneMatch(c -> c < 0x20 && c != '\n' || c >= 0x7f && c <= 0x9f || c == 0x202e),
                        () -> "no control character reaches the terminal:\n" + r);
            }
        }
    }

    /**
     * Issue #34, item 10: continuous sampling's service name defaults to the target's jar or main
     * class, which another user chooses; serve --continuous printed it raw. Here the jar's name holds
     * the escape sequences.
     */
    @Test
    void aServiceNameFromTheTargetReachesNoTerminalAsControlCharacters() throws Exception {
        Path jar = Paths.workDir("hostile-jar").resolve("orders\u001b]0;PWNED\u0007\u001b[2J\u009b31m.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Allocator.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, Stream.of(Paths.workloadClassPath().split(File.pathSeparator))
                .map(entry -> Path.of(entry).toUri().toString()).collect(Collectors.joining(" ")));
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush();
        }
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class, List.of("-jar", jar.toString()))) {
            Result r = HeaptapCli.run("serve", Long.toString(target.pid()), "--continuous");
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(r.out().contains("orders\\x1b]0;PWNED"), r::toString);
            String all = r.out() + r.stderr();
            assertTrue(all.codePoints().noneMatch(c -> c < 0x20 && c != '\n' || c >= 0x7f && c <= 0x9f),
                    () -> "issue #34: no control character reaches the terminal:\n" + r);
        }
    }

    /** pid 1 is never a JVM the Attach API lists: heaptap must refuse rather than send it SIGQUIT. */
    @Test
    void aProcessTheAttachApiDoesNotListIsNeverSignalled() {
        Result r = HeaptapCli.run("capture", "1", "--duration", "1s");
        assertEquals(4, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("is not a JVM that heaptap can see") || r.stderr().contains("is not a Java virtual machine"),
                r::toString);
    }

    @Test
    void aMainClassThatMatchesNoJvmOrSeveral() throws Exception {
        assertOneLineError(HeaptapCli.run("capture", "NoSuchMainClass", "--duration", "1s"), 3,
                "no running JVM has the main class 'NoSuchMainClass'");
        try (TargetJvm one = TargetJvm.start(Jdk.current(), Allocator.class);
             TargetJvm two = TargetJvm.start(Jdk.current(), Allocator.class)) {
            Result r = HeaptapCli.run("capture", "Allocator", "--duration", "1s");
            assertOneLineError(r, 3, "JVMs match 'Allocator'");
            assertTrue(r.stderr().contains(Long.toString(one.pid())) && r.stderr().contains(Long.toString(two.pid())));
        }
    }

    @Test
    void aMainClassThatMatchesOneJvmIsCaptured() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            Result r = HeaptapCli.run("capture", Allocator.class.getName(), "--duration", "500ms");
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(r.out().contains("pid " + target.pid()));
        }
    }

    @Test
    void aTargetThatDisablesTheAttachMechanism() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class, List.of("-XX:+DisableAttachMechanism"))) {
            assertOneLineError(HeaptapCli.run("capture", Long.toString(target.pid()), "--duration", "1s"), 4,
                    "-XX:+DisableAttachMechanism");
            assertTrue(target.isAlive());
            assertFalse(target.stdout().contains("Full thread dump"), "no SIGQUIT thread dump in the target");
        }
    }

    @Test
    void aTargetOwnedByAnotherUser() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to run heaptap as another user");
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            Result r = HeaptapCli.runAs("nobody", "capture", Long.toString(target.pid()), "--duration", "1s");
            assertOneLineError(r, 4, "belongs to user 'root'");
            assertTrue(r.stderr().contains("sudo -u root"), r::toString);
            assertTrue(target.isAlive());
        }
    }

    @Test
    void anotherAgentHoldsTheHeapSamplingCapability() throws Exception {
        Path lib = asyncProfilerLibrary();
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class,
                List.of("-agentpath:" + lib + "=start,event=alloc,alloc=512k"))) {
            Result r = HeaptapCli.run("capture", Long.toString(target.pid()), "--duration", "1s");
            assertOneLineError(r, 5, "another JVMTI agent in this JVM (async-profiler");
            assertTrue(target.isAlive());
            Result status = HeaptapCli.run("status", Long.toString(target.pid()));
            assertTrue(status.out().contains("state:        idle"), status::toString);
        }
    }

    /** async-profiler's native library, from its Maven Central jar (test scope). */
    static Path asyncProfilerLibrary() throws Exception {
        Path lib = Paths.workDir("async-profiler").resolve("libasyncProfiler.so");
        try (ZipFile jar = new ZipFile(Paths.asyncProfilerJar().toFile());
             InputStream in = jar.getInputStream(jar.getEntry("linux-x64/libasyncProfiler.so"))) {
            Files.copy(in, lib);
        }
        return lib;
    }
}
