package io.heaptap.it.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Wait;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.VerbosePhases;
import io.heaptap.it.workload.AllBlocked;
import io.heaptap.it.workload.Allocator;
import io.heaptap.it.workload.LockedDownApp;
import io.heaptap.it.workload.Quiet;
import io.heaptap.it.workload.Stress;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code start} reaches heaptap through the Attach API alone (the capture rides on loading
 * heaptap.jar) on targets that make that hard: every core saturated by allocating threads, or every
 * thread blocked. No timing asserts: the attach phases' speed is the benchmark's.
 */
class AttachIT {

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    /** More allocating threads than cores: the attach listener competes for every slice of CPU. */
    @ParameterizedTest
    @MethodSource("jdks")
    void startOnATargetSaturatingEveryCoreSamplesAndNeedsNoJmx(Jdk jdk) throws Exception {
        int threads = 2 * Runtime.getRuntime().availableProcessors() + 1;
        try (TargetJvm target = TargetJvm.start(jdk, Stress.class, List.of("-Xmx512m"), Integer.toString(threads))) {
            String pid = Long.toString(target.pid());
            Result started = HeaptapCli.run("start", pid, "--duration", "2m", "--interval", "64k", "--verbose");
            assertEquals(0, started.exitCode(), started::toString);
            List<String> phases = VerbosePhases.PHASE.matcher(started.stderr()).results().map(m -> m.group(2)).toList();
            assertTrue(phases.stream().anyMatch(p -> p.startsWith("first sample in the target")), started::toString);
            assertFalse(phases.stream().anyMatch(p -> p.contains("JMX")), "no JMX on start's path: " + phases);
            // The JMX commands still find heaptap: its MXBean was registered after sampling began.
            Result dump = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, dump.exitCode(), dump::toString);
            assertTrue(Profiles.json(dump.stdout()).get("capture").get("samples").asLong() > 0, "samples were taken");
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());
        }
    }

    /**
     * A JVM whose MBeanServer refuses heaptap's MBean: {@code start} needs no JMX and starts; a
     * {@code capture}, which follows its capture over JMX, says it cannot and stops the capture it
     * started, so none is left running unwatched.
     */
    @Test
    void aCaptureThatCannotFollowOverJmxLeavesNothingRunning() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), LockedDownApp.class)) {
            String pid = Long.toString(target.pid());
            Result capture = HeaptapCli.run("capture", pid, "--duration", "10m");
            assertEquals(4, capture.exitCode(), capture::toString);
            assertEquals(1, capture.stderr().lines().filter(l -> !l.isBlank()).count(), capture::toString);
            assertTrue(capture.stderr().contains("heaptap serve " + pid), capture::toString);
            Http http = HttpEndpoint.serve(target.pid());
            assertEquals("stopped", HttpEndpoint.json(http.get("/api/status")).get("state").asText(), "the capture was stopped again");

            Result start = HeaptapCli.run("start", pid, "--duration", "10m");
            assertEquals(0, start.exitCode(), start::toString);
            JsonNode status = HttpEndpoint.json(http.get("/api/status"));
            assertEquals("recording", status.get("state").asText());
            assertTrue(status.get("startedBy").asText().startsWith("heaptap start"), status::toString);
        }
    }

    /**
     * A stopped JVM (SIGSTOP) answers no attach: refused at once with one line, and not signalled,
     * so it prints no thread dump when it resumes; resumed, it is attached to as usual.
     */
    @Test
    void aStoppedTargetIsRefusedAndNotSignalled() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            signal("STOP", pid);
            Wait.until("pid " + pid + " stopped", Duration.ofSeconds(30), () -> state(pid) == 'T');
            Result stopped;
            try {
                stopped = HeaptapCli.run("start", pid, "--duration", "1m");
            } finally {
                signal("CONT", pid);
            }
            assertEquals(4, stopped.exitCode(), stopped::toString);
            assertEquals(List.of("heaptap: pid " + pid + " is stopped (SIGSTOP, Ctrl-Z or a debugger): heaptap attaches to running JVMs"
                    + " only; resume it (kill -CONT " + pid + ") and try again"),
                    stopped.stderr().lines().filter(l -> !l.isBlank()).toList(), stopped::toString);
            Result started = HeaptapCli.run("start", pid, "--duration", "1m");
            assertEquals(0, started.exitCode(), started::toString);
            assertFalse(target.stdout().contains("Full thread dump"), "the stopped target was not signalled");
        }
    }

    /** The process's state letter from /proc (T: stopped). */
    private static char state(String pid) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void signal(String signal, String pid) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, pid).start().waitFor());
    }

    /** Every thread blocked (on a monitor, or on stdin): the attach listener answers anyway, and sampling runs. */
    @Test
    void startOnATargetWhoseThreadsAreAllBlocked() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), AllBlocked.class)) {
            String pid = Long.toString(target.pid());
            Result started = HeaptapCli.run("start", pid, "--duration", "2m", "--interval", "16k");
            assertEquals(0, started.exitCode(), started::toString);
            Result again = HeaptapCli.run("start", pid, "--duration", "2m");
            assertEquals(5, again.exitCode(), again::toString);
            assertEquals(1, again.stderr().lines().filter(l -> !l.isBlank()).count(), again::toString);
            assertTrue(again.stderr().startsWith("heaptap: pid " + pid + " refused: a capture is already running"), again::toString);
            target.send("release");
            target.awaitLine("allocated", Duration.ofSeconds(60));
            Result dump = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, dump.exitCode(), dump::toString);
            assertTrue(Profiles.json(dump.stdout()).get("capture").get("samples").asLong() > 0, "the released threads were sampled");
        }
    }

    /**
     * A target whose agent another heaptap version loaded (here: heaptap.jar with another version
     * stamped in it): this CLI refuses in one line with exit code 4 instead of failing halfway
     * through the command, and the other version's CLI still works with it.
     */
    @Test
    void anAgentOfAnotherHeaptapVersionIsRefusedInOneLine(@TempDir Path work) throws Exception {
        Path other = work.resolve("heaptap-other.jar");
        Files.copy(Paths.heaptapJar(), other);
        try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + other.toUri()), Map.of())) {
            Files.writeString(jar.getPath("HEAPTAP-INF/classes/io/heaptap/session/version.properties"), "version=0.0.1-other\n");
        }
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Quiet.class)) {
            String pid = Long.toString(target.pid());
            Result loaded = HeaptapCli.finish(new ProcessBuilder(Jdk.current().java().toString(), "-jar", other.toString(), "status", pid)
                    .start());
            assertEquals(0, loaded.exitCode(), loaded::toString);
            assertTrue(loaded.out().contains("heaptap 0.0.1-other"), loaded::toString);

            Result status = HeaptapCli.run("status", pid);
            assertEquals(4, status.exitCode(), status::toString);
            assertEquals(1, status.stderr().lines().filter(l -> !l.isBlank()).count(), status::toString);
            assertTrue(status.stderr().contains("already runs heaptap's agent 0.0.1-other"), status::toString);
            assertTrue(status.stderr().contains("use heaptap 0.0.1-other's CLI with this JVM, or restart the JVM"), status::toString);
        }
    }
}
