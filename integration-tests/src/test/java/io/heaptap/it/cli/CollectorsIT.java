package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.OldGenTurnover;
import io.heaptap.it.workload.Quiet;
import io.heaptap.it.workload.Stress;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Live tracking under every collector of both JDKs: the marking clock against the collector's log, proven
 * live bytes never above the heap in use after a forced collection, and 32 threads with constant thinning.
 */
class CollectorsIT {
    static final long MAX_HEAP = 256L << 20;

    static Stream<Arguments> collectors() {
        return Jdk.all().stream().flatMap(jdk -> Stream.of("UseSerialGC", "UseParallelGC", "UseG1GC", "UseZGC", "UseShenandoahGC")
                .map(gc -> Arguments.of(jdk, gc)));
    }

    /** Every collector, and Shenandoah's generational mode (a product option from JDK 25, its beans named as the other mode's). */
    static Stream<Arguments> collectorsAndModes() {
        Jdk newest = Jdk.newest();
        return Stream.concat(collectors(), newest.feature() >= 25
                ? Stream.of(Arguments.of(newest, "UseShenandoahGC -XX:ShenandoahGCMode=generational")) : Stream.empty());
    }

    @ParameterizedTest(name = "{0} -XX:+{1}")
    @MethodSource("collectorsAndModes")
    void liveTrackingWorksAndResetLeavesNoWeakRefs(Jdk jdk, String gc) throws Exception {
        List<String> options = new ArrayList<>(List.of("-Xmx256m"));
        options.addAll(List.of(("-XX:+" + gc).split(" ")));
        try (TargetJvm target = TargetJvm.start(jdk, Stress.class, options, "4")) {
            target.lowerPriorityOf("stress-");
            String pid = Long.toString(target.pid());
            // Dumped while recording: the ring's objects live for well under a second, so only a
            // capture that is still sampling is sure to be tracking some of them.
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "5m", "--interval", "32k", "--live-budget", "2048")
                    .exitCode());
            Result r = HeaptapCli.run("dump", pid, "--format", "json", "--gc");
            assertEquals(0, r.exitCode(), r::toString);
            JsonNode profile = Profiles.json(r.stdout());
            assertSane(profile);
            assertTrue(profile.get("live").get("tracked").asLong() > 0, "something is tracked under " + gc);
            assertTrue(profile.get("live").get("gcCount").asLong() > 0, "the GC clock runs under " + gc);
            // After a forced full collection the proven part is what survived it: never above the heap in use.
            JsonNode live = profile.get("live");
            assertTrue(live.get("markings").get("completed").asLong() >= 1, live::toString);
            assertTrue(live.get("proven").get("estimatedBytes").asDouble() <= live.get("heapUsedBytes").asDouble(),
                    "proven live bytes above the heap in use under " + gc + ": " + live);
            assertEquals(0, live.get("impossibleFigures").size(), live::toString);
            String status = HeaptapCli.run("status", pid).out();
            assertTrue(status.contains("live:         proven live: ") && status.contains("not yet examined: ")
                    && status.contains("whole-heap marking"), status);
            assertEquals(0, HeaptapCli.run("reset", pid).exitCode());
            assertTrue(HeaptapCli.run("status", pid).out().contains("weak refs:    0"), "reset deletes every weak reference");
            assertTrue(target.isAlive());
        }
    }

    static Stream<Arguments> markingCollectors() {
        return Stream.concat(collectors().map(a -> Arguments.of(a.get()[0], a.get()[1], "")),
                Jdk.all().stream().map(jdk -> Arguments.of(jdk, "UseG1GC", "-XX:+ExplicitGCInvokesConcurrent")));
    }

    /**
     * The marking clock against the collector's own log: on a quiet target, two System.gc() (whole-heap
     * collections the application asked for) and one forced by heaptap are three markings, counted once
     * each; G1 with -XX:+ExplicitGCInvokesConcurrent turns the two into concurrent cycles, whose Remark and
     * Cleanup pauses JDK 20+ reports to a management bean and JDK 17 only as JVMTI GC events.
     */
    @ParameterizedTest(name = "{0} -XX:+{1} {2}")
    @MethodSource("markingCollectors")
    void theMarkingClockCountsWhatTheCollectorLogs(Jdk jdk, String gc, String extra) throws Exception {
        Path log = Paths.workDir("markings").resolve(jdk.feature() + "-" + gc + (extra.isEmpty() ? "" : "-concurrent") + ".log");
        Files.deleteIfExists(log);
        List<String> args = new ArrayList<>(List.of("-Xmx256m", "-XX:+" + gc, "-Xlog:gc:file=" + log));
        if (!extra.isEmpty()) {
            args.add(extra);
        }
        try (TargetJvm target = TargetJvm.start(jdk, Quiet.class, args)) {
            String pid = Long.toString(target.pid());
            // The capture's count begins during "start": a cycle of the collector's own (ZGC's warm-up) may end
            // during it, logged before "start" returns yet counted. So the count is bounded by the log read
            // around "start" on one side and around the final dumps on the other.
            long beforeStart = wholeHeapMarkings(Files.readAllLines(log), gc, extra);
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "5m").exitCode());
            long afterStart = wholeHeapMarkings(Files.readAllLines(log), gc, extra);
            target.send("fill");
            target.awaitLine("filled", Duration.ofSeconds(60));
            for (int i = 0; i < 2; i++) {
                target.send("gc");
                target.awaitLine("gc done", Duration.ofSeconds(60));
            }
            Result r = HeaptapCli.run("dump", pid, "--format", "json", "--gc");
            assertEquals(0, r.exitCode(), r::toString);
            long logged = wholeHeapMarkings(Files.readAllLines(log), gc, extra) - afterStart;
            assertTrue(logged >= 3, "the collector logged the two System.gc() and the forced collection: " + logged);
            // The notifications of the two System.gc() may still be on their way: wait for them, not for time.
            long[] counted = new long[1];
            Wait.until("the clock to count " + logged + " markings", Duration.ofSeconds(30), () -> {
                Result d = HeaptapCli.run("dump", pid, "--format", "json");
                counted[0] = Profiles.json(d.stdout()).get("live").get("markings").get("inCapture").asLong();
                return counted[0] >= logged;
            });
            // A concurrent collector may add a cycle of its own meanwhile: the log says how many ran.
            long loggedAtMost = wholeHeapMarkings(Files.readAllLines(log), gc, extra) - beforeStart;
            assertTrue(counted[0] <= loggedAtMost, "markings counted once each, as logged: " + counted[0] + " counted, "
                    + logged + " to " + loggedAtMost + " logged");
            String limitation = Profiles.json(r.stdout()).get("live").get("markings").get("limitation").asText();
            // Generational ZGC (the only ZGC on 25) proves only on request.
            boolean limited = gc.equals("UseZGC") && jdk.feature() >= 24;
            assertEquals(limited, !limitation.isEmpty(), limitation);
            assertTrue(target.isAlive());
        }
    }

    /**
     * G1's own concurrent cycles, not asked for, against its log: on JDK 17 heaptap sees them only as JVMTI GC
     * events beyond the GC beans' counts, on 25 through the {@code G1 Concurrent GC} bean. The markings counted
     * never exceed the Remark and Full pauses logged over a longer span, and exceed the Full ones: the
     * concurrent cycles count. A dump without --gc, so nothing is forced.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.heaptap.it.support.Jdk#all")
    void g1sOwnConcurrentCyclesAreCountedAndNeverMoreThanLogged(Jdk jdk) throws Exception {
        Path log = Paths.workDir("markings").resolve(jdk.feature() + "-G1-own-cycles.log");
        Files.deleteIfExists(log);
        try (TargetJvm target = TargetJvm.start(jdk, OldGenTurnover.class, List.of("-Xmx256m", "-XX:+UseG1GC", "-Xlog:gc:file=" + log))) {
            String pid = Long.toString(target.pid());
            long before = wholeHeapMarkings(Files.readAllLines(log), "UseG1GC", "");  // read first: the log's span holds heaptap's
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "5m").exitCode());
            target.send("turn");
            target.awaitLine("turning", Duration.ofSeconds(60));
            long[] counted = new long[1];
            Wait.until("the clock to count 3 markings", Duration.ofSeconds(60), () -> {
                Result d = HeaptapCli.run("dump", pid, "--format", "json");
                counted[0] = Profiles.json(d.stdout()).get("live").get("markings").get("inCapture").asLong();
                return counted[0] >= 3;
            });
            List<String> lines = Files.readAllLines(log);
            long logged = wholeHeapMarkings(lines, "UseG1GC", "") - before;
            long full = lines.stream().filter(l -> l.contains("Pause Full")).count();
            assertTrue(counted[0] <= logged, "counted " + counted[0] + " markings, the log has " + logged + " Remark and Full pauses");
            assertTrue(counted[0] > full, "concurrent cycles counted: " + counted[0] + " markings, " + full + " full collections");
            assertTrue(target.isAlive());
        }
    }

    /**
     * Major collections of generational ZGC that examine the whole heap: those asked for (a major cycle ZGC starts
     * by itself, e.g. "Warmup", leaves the young generation's weak references alone, and heaptap does not count it).
     */
    static final List<String> ZGC_EXPLICIT_CAUSES = List.of("(System.gc())", "(JvmtiEnv ForceGarbageCollection)", "(Diagnostic Command)",
            "(Heap Dump Initiated GC)", "(Heap Inspection Initiated GC)");

    /** Whole-heap markings in a -Xlog:gc log, as each collector words them. */
    static long wholeHeapMarkings(List<String> lines, String gc, String extra) {
        return lines.stream().filter(l -> switch (gc) {
            case "UseZGC" -> l.contains("Garbage Collection (") && l.contains("->")
                    || l.contains("Major Collection (") && l.contains("->") && ZGC_EXPLICIT_CAUSES.stream().anyMatch(l::contains);
            case "UseShenandoahGC" -> l.contains("Pause Init Mark") || l.contains("Pause Full") || l.contains("Pause Degenerated");
            default -> l.contains("Pause Full") || l.contains("Pause Remark");
        }).count();
    }

    @Test
    void dumpsDuringConstantThinningCleaningAndGcsWith32Threads() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Stress.class, List.of("-Xmx256m"), "32")) {
            target.lowerPriorityOf("stress-");
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "5m", "--interval", "16k", "--live-budget", "256").exitCode());
            long thinnings = 0;
            for (int i = 0; i < 6; i++) {
                Result r = i % 2 == 0 ? HeaptapCli.run("dump", pid, "--format", "json")
                        : HeaptapCli.run("dump", pid, "--format", "json", "--gc");
                assertEquals(0, r.exitCode(), r::toString);
                JsonNode profile = Profiles.json(r.stdout());
                assertSane(profile);
                thinnings = profile.get("live").get("thinnings").asLong();
            }
            assertTrue(thinnings > 10, "the table was thinned all along: " + thinnings);
            assertEquals(0, HeaptapCli.run("reset", pid).exitCode());
            assertTrue(HeaptapCli.run("status", pid).out().contains("weak refs:    0"));
            assertTrue(target.isAlive());
        }
    }

    /** No negative, non-finite or impossible figure anywhere. */
    static void assertSane(JsonNode profile) {
        JsonNode live = profile.get("live");
        double keep = live.get("keepProbability").asDouble();
        assertTrue(keep > 0 && keep <= 1, "keep-probability " + keep);
        assertTrue(live.get("tracked").asLong() <= live.get("budget").asLong(), "tracked within budget");
        for (String part : new String[] {"proven", "unexamined"}) {
            JsonNode p = live.get(part);
            assertTrue(p.get("estimatedBytes").isNumber() && p.get("estimatedBytes").asDouble() >= 0, live::toString);
            assertTrue(p.get("estimatedBytesLow").asDouble() <= p.get("estimatedBytes").asDouble()
                    && p.get("estimatedBytes").asDouble() <= p.get("estimatedBytesHigh").asDouble(), live::toString);
        }
        // Not a plain number above the heap: an impossible figure is named as such (impossibleFigures), never left bare.
        assertTrue(live.get("proven").get("estimatedBytesLow").asDouble() <= MAX_HEAP || live.get("impossibleFigures").size() > 0,
                "an impossible live estimate shown as a plain number: " + live);
        for (JsonNode site : profile.get("sites")) {
            assertTrue(site.get("estimatedBytes").isNumber() && site.get("estimatedBytes").asDouble() >= 0, site::toString);
            assertTrue(site.get("samples").asLong() >= 0);
            JsonNode l = site.get("live");
            if (!l.isNull()) {
                assertTrue(l.get("proven").get("estimatedBytes").asDouble() >= 0 && l.get("unexamined").get("estimatedObjects").asDouble() >= 0,
                        l::toString);
                assertTrue(l.get("minAgeMillis").asLong() >= 0 && l.get("minAgeMillis").asLong() <= l.get("maxAgeMillis").asLong());
                assertTrue(l.get("minGcs").asLong() >= 0 && l.get("minGcs").asLong() <= l.get("maxGcs").asLong());
            }
        }
    }
}
