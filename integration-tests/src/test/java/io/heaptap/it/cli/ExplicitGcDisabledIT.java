package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jcmd;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.Quiet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A target started with {@code -XX:+DisableExplicitGC}, against the collector's own log: which ways of forcing a
 * whole-heap collection still collect. {@code System.gc()} does nothing, and the marking clock counts nothing for
 * it; the DiagnosticCommand's {@code GC.run} and {@code GC.class_histogram} collect; heaptap's forced collection
 * (JVMTI ForceGarbageCollection: {@code dump --gc}, {@code census}) collects and counts once. A census under the
 * flag is a full one: it follows its own collection, and its total is the collector's heap after GC.
 */
class ExplicitGcDisabledIT {
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.heaptap.it.support.Jdk#all")
    void onlySystemGcIsTurnedOffAndTheClockCountsOnlyWhatRan(Jdk jdk) throws Exception {
        Path log = Paths.workDir("explicit-gc").resolve(jdk.feature() + "-disabled.log");
        Files.deleteIfExists(log);
        try (TargetJvm target = TargetJvm.start(jdk, Quiet.class,
                List.of("-Xmx256m", "-XX:+UseG1GC", "-XX:+DisableExplicitGC", "-Xlog:gc:file=" + log))) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "5m").exitCode());
            long afterStart = full(log, "");
            target.send("fill");
            target.awaitLine("filled", Duration.ofSeconds(60));

            // System.gc(): nothing runs, and nothing is counted.
            target.send("gc");
            target.awaitLine("gc done", Duration.ofSeconds(60));
            assertEquals(0, full(log, "(System.gc())"), () -> "System.gc() collected under the flag:\n" + read(log));
            assertEquals(afterStart, full(log, ""), () -> read(log));
            assertEquals(0, markings(pid), "a System.gc() that did not run is not a marking");

            // The DiagnosticCommand's collections run regardless of the flag.
            Jcmd.run(jdk, pid, "GC.run");
            assertEquals(1, full(log, "(Diagnostic Command)"), () -> "GC.run under the flag:\n" + read(log));
            Jcmd.run(jdk, pid, "GC.class_histogram");
            assertEquals(1, full(log, "(Heap Inspection Initiated GC)"), () -> "GC.class_histogram under the flag:\n" + read(log));

            // heaptap's forced collection (JVMTI) runs, and the clock counts each collection that ran once.
            Result dump = HeaptapCli.run("dump", pid, "--gc", "--format", "json");
            assertEquals(0, dump.exitCode(), dump::toString);
            assertEquals(1, full(log, "(JvmtiEnv ForceGarbageCollection)"), () -> "JVMTI under the flag:\n" + read(log));
            assertTrue(Profiles.json(dump.stdout()).get("live").get("gcForced").asBoolean(), dump::toString);
            long ran = full(log, "") - afterStart;
            assertEquals(3, ran, () -> read(log));
            long[] counted = new long[1];
            // GC.run's and the histogram's collections reach the clock by notification: wait for them, not for time.
            Wait.until("the clock to count " + ran + " markings", Duration.ofSeconds(30), () -> {
                counted[0] = markings(pid);
                return counted[0] >= ran;
            });
            assertEquals(ran, counted[0], () -> "counted once each, as logged:\n" + read(log));

            // A census under the flag: after its own collection, so a full census of what is live.
            Result census = HeaptapCli.run("census", pid, "--format", "json");
            assertEquals(0, census.exitCode(), census::toString);
            assertEquals(2, full(log, "(JvmtiEnv ForceGarbageCollection)"), () -> read(log));
            JsonNode c = Profiles.json(census.stdout());
            double total = c.get("censusBytes").asDouble();
            assertEquals(c.get("heapAfterGcBytes").asDouble(), total, 0.05 * total, c::toString);
            Result text = HeaptapCli.run("census", pid);
            assertTrue(text.out().contains("class census after a forced whole-heap collection"), text::toString);
            assertTrue(target.isAlive());
        }
    }

    /** Whole-heap pauses in the collector's log whose line names {@code cause} ("" for any). */
    private static long full(Path log, String cause) throws IOException {
        return Files.readAllLines(log).stream().filter(l -> l.contains("Pause Full") && l.contains(cause)).count();
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(the log could not be read: " + e + ")";
        }
    }

    /** Whole-heap markings in the capture, as a dump without --gc reports them. */
    private static long markings(String pid) {
        Result d = HeaptapCli.run("dump", pid, "--format", "json");
        assertEquals(0, d.exitCode(), d::toString);
        return Profiles.json(d.stdout()).get("live").get("markings").get("inCapture").asLong();
    }
}
