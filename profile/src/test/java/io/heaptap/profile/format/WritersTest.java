package io.heaptap.profile.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.SamplingCost;
import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.Markings;
import io.heaptap.profile.TrackedObject;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassCount;
import io.heaptap.profile.census.DumpCensus;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The writers on a small hand-made profile whose right output is known. */
class WritersTest {
    static final Frame MAIN = new Frame("app.Main", "main", "Main.java", 10);
    static final Frame CACHE_PUT = new Frame("app.Cache", "put", "Cache.java", 42);
    static final Frame PARSE = new Frame("app.Parser", "parse", "Parser.java", 7);

    /** 30 s with G1: 400 young and 2 full collections, 2.4 s of pauses, 24 s of 60 s CPU in GC threads. */
    static final GcCost BUSY_GC = new GcCost("G1", new HeapSizing(16L << 20, 40L << 20, 256L << 20, 256L << 20),
            30_000_000_000L, List.of(new CollectorCost("G1 Young Generation", CollectorCost.Kind.PAUSES, 400, 2_000),
                    new CollectorCost("G1 Concurrent GC", CollectorCost.Kind.CYCLE_PAUSES, 3, 100),
                    new CollectorCost("G1 Old Generation", CollectorCost.Kind.PAUSES, 2, 300)),
            new HeapAroundGc(402, 200L << 20, 20L << 20, 30L << 20),
            new GcCpu(true, null, 24_000_000_000L, 60_000_000_000L, 4, List.of("GC Thread#", "G1 Conc#"), null));

    static AllocationProfile profile() {
        return profile(BUSY_GC);
    }

    static AllocationProfile profile(GcCost gc) {
        CaptureInfo info = new CaptureInfo(new TargetInfo(4242, "25.0.1", "OpenJDK 64-Bit Server VM", "app.Main"),
                Instant.parse("2026-11-21T10:00:00Z"), 30_000_000_000L, 524_288, 64, 300,
                new Drops(0, 2, 0, 1, 0, 0, 0), List.of("a warning"), gc);
        LiveStats cacheLive = LiveStats.of(List.of(
                new TrackedObject(32, 1000, 32_000, Duration.ofSeconds(5).toNanos(), 3, false, false),
                new TrackedObject(32, 1000, 32_000, Duration.ofSeconds(20).toNanos(), 9, true, false)));
        LiveInfo liveInfo = new LiveInfo(true, 65536, 2, 1.0, 10, 0, 0, 0, 8, 2, 12, LiveFilter.NONE, false,
                new Markings(3, 2, 1, Instant.parse("2026-11-21T10:00:20Z"), "", 3000), 40L << 20, 256L << 20);
        return new AllocationProfile(info, liveInfo, List.of(
                new AllocationSite(List.of(CACHE_PUT, MAIN), false, "app.Entry", 100, 2_000_000.4, 64_000_000.6, 1e8, 1e12, cacheLive),
                new AllocationSite(List.of(PARSE, MAIN), true, "byte[]", 200, 400.0, 128_000_000.0, 0, 0, LiveStats.NONE),
                new AllocationSite(List.of(), false, "java.lang.String", 1, 10, 240, 0, 0, LiveStats.NONE)));
    }

    static String text(ProfileFormat f) {
        return new String(ProfileWriter.toBytes(profile(), f), StandardCharsets.UTF_8);
    }

    @Test
    void collapsedIsRootFirstWithTheTypeAsLeafAndIntegerBytes() {
        assertEquals("""
                [truncated];app.Main.main;app.Parser.parse;byte[] 128000000
                app.Main.main;app.Cache.put;app.Entry 64000001
                [no-stack];java.lang.String 240
                """, text(ProfileFormat.COLLAPSED));
    }

    /** A capture whose interval followed a sample-rate target shows the range it ran at, the target and the rate it got. */
    @Test
    void anAdaptiveCaptureShowsItsIntervalRangeAndSampleRate() {
        AllocationProfile fixed = profile();
        CaptureInfo f = fixed.info();
        CaptureInfo adaptive = new CaptureInfo(f.target(), f.startedAt(), 10_000_000_000L, 2 << 20, f.stackDepth(), 48_000,
                f.drops(), f.warnings(), f.gc(), new IntervalRange(32 * 1024, 4 << 20, 5_000),
                new SamplingCost(48_000, 218_000_000L, 19_600_000_000L, 0.0075));
        AllocationProfile profile = new AllocationProfile(adaptive, fixed.liveInfo(), fixed.sites());
        String t = new String(ProfileWriter.toBytes(profile, ProfileFormat.TEXT), StandardCharsets.UTF_8);
        assertTrue(t.contains("interval 32.0 KiB\u20134.0 MiB (adaptive, target 5,000 samples/s), depth 64, 48,000 samples (4,800/s)"), t);
        String j = new String(ProfileWriter.toBytes(profile, ProfileFormat.JSON), StandardCharsets.UTF_8);
        assertTrue(j.contains("\"intervalBytes\":2097152,\"intervalMinBytes\":32768,\"intervalMaxBytes\":4194304,"
                + "\"sampleRateTarget\":5000"), j);
        assertTrue(j.contains("\"samplesPerSecond\":4800"), j);
        assertTrue(t.contains("heaptap's cost: sample callback 218ms = 1.11% of 19.6s process CPU (4.5 \u00b5s a sample; bound 0.75%, over it; not counted: heaptap's threads, the JVM's part of each sample)"), t);
        assertTrue(j.contains("\"samplingCost\":{\"samples\":48000,\"callbackNanos\":218000000,\"processCpuNanos\":19600000000,"
                + "\"budgetShare\":0.0075,\"jvmEvents\":0,\"jvmEventNanos\":0}"), j);
        assertFalse(text(ProfileFormat.TEXT).contains("heaptap's cost"), "a cost not measured is not shown");
        assertTrue(text(ProfileFormat.TEXT).contains("interval 512.0 KiB, depth 64, 300 samples (10/s)"), "a fixed interval is one value");
    }

    @Test
    void textShowsEstimatesSamplesDropsAndWarnings() {
        String t = text(ProfileFormat.TEXT);
        assertTrue(t.contains("pid 4242"), t);
        assertTrue(t.contains("interval 512.0 KiB, depth 64, 300 samples"), t);
        assertTrue(t.contains("dropped: 2 samples without a stack (no Java frames, or the stack table full), 1 stacks cut at the depth limit"), t);
        assertTrue(t.contains("warning: a warning"), t);
        assertTrue(t.contains("122.1 MiB   66.7%"), t);
        assertTrue(t.contains("61.0 MiB ± 1.9 MiB"), "allocations carry their interval: " + t);
        assertTrue(t.contains("at app.Parser.parse(Parser.java:7)"), t);
        assertTrue(t.contains("Live objects now (2 tracked of a 65,536 budget; keep-probability 1, never thinned; 12 GCs seen)"), t);
        assertTrue(t.contains("proven live: 31.3 KiB [") && t.contains("not yet examined: 31.3 KiB ["), t);
        assertTrue(t.contains("2 whole-heap markings (1 forced by heaptap) during the capture, the last completed at 2026-11-21T10:00:20Z"), t);
        assertTrue(t.contains("5.0s/5.0s/20.0s"), t);
    }

    @Test
    void textStartsWithTheGcCostAndItsAlarm() {
        String t = text(ProfileFormat.TEXT);
        assertTrue(t.contains("collector: G1; heap: max 256.0 MiB, committed 256.0 MiB, used 40.0 MiB, initial 16.0 MiB"), t);
        assertTrue(t.indexOf("GC during the capture") < t.indexOf("Top allocation sites"), t);
        assertTrue(t.contains("  >> GC used 40% of this JVM's CPU and paused it 8% of the time over the last 30.0 s: "
                + "allocation is worth chasing"), t);
        assertTrue(t.contains("  402 collections (G1 Young Generation 400, G1 Concurrent GC 3, G1 Old Generation 2), "
                + "pauses 2.4s = 8.0% of 30.0s"), t);
        assertTrue(t.contains("heap used before -> after a collection: 200.0 MiB -> 20.0 MiB on average, at most 30.0 MiB after"), t);
        assertTrue(t.contains("GC CPU: 24.0s of 1m0s process CPU = 40.0% (0.80 cores; 4 threads: GC Thread#, G1 Conc#)"), t);
        assertTrue(t.contains("allocation rate: 6.1 MiB/s (estimate, from the samples)"), t);
    }

    @Test
    void anIdleCaptureSaysNoCollectionAndRaisesNoAlarm() {
        GcCost idle = new GcCost("ZGC", new HeapSizing(-1, 8L << 20, 16L << 20, 256L << 20), 3_000_000_000L,
                List.of(new CollectorCost("ZGC Cycles", CollectorCost.Kind.CYCLES, 0, 0),
                        new CollectorCost("ZGC Pauses", CollectorCost.Kind.CYCLE_PAUSES, 0, 0)),
                HeapAroundGc.NONE, new GcCpu(true, null, 16_000_000, 30_000_000, 1, List.of("ZDirector"), null));
        String t = new String(ProfileWriter.toBytes(profile(idle), ProfileFormat.TEXT), StandardCharsets.UTF_8);
        assertTrue(t.contains("  no collection during the capture"), t);
        assertTrue(t.contains("heap: max 256.0 MiB, committed 16.0 MiB, used 8.0 MiB\n"), "an undefined size is left out: " + t);
        assertTrue(!t.contains(">>"), "half of almost nothing is no alarm: " + t);
        assertTrue(!t.contains("heap used before"), t);
    }

    @Test
    void aroundConcurrentCyclesTheHeapIsReadAtTheirStartAndEnd() {
        // ZGC on a full heap: the application refills during a cycle what the cycle frees, so the
        // level at its end can be above the level at its start, and must not read as "after a collection".
        GcCost zgc = new GcCost("ZGC (generational)", new HeapSizing(64L << 20, 64L << 20, 64L << 20, 64L << 20), 4_600_000_000L,
                List.of(new CollectorCost("ZGC Minor Cycles", CollectorCost.Kind.CYCLES, 420, 3907),
                        new CollectorCost("ZGC Minor Pauses", CollectorCost.Kind.CYCLE_PAUSES, 1278, 14)),
                new HeapAroundGc(420, 62L << 20, 63L << 20, 64L << 20),
                new GcCpu(true, null, 4_000_000_000L, 6_000_000_000L, 7, List.of("ZWorkerYoung#"), null));
        String t = new String(ProfileWriter.toBytes(profile(zgc), ProfileFormat.TEXT), StandardCharsets.UTF_8);
        assertTrue(t.contains("heap used at the start -> end of a concurrent cycle: 62.0 MiB -> 63.0 MiB on average, at most "
                + "64.0 MiB at an end (the application allocates during a cycle: the gap understates what a cycle freed)"), t);
        assertTrue(!t.contains("before -> after a collection"), t);
        String j = new String(ProfileWriter.toBytes(profile(zgc), ProfileFormat.JSON), StandardCharsets.UTF_8);
        assertTrue(j.contains("\"maxAfterBytes\":67108864,\"concurrentCycles\":true}"), j);
        String g1 = text(ProfileFormat.JSON);
        assertTrue(g1.contains("\"maxAfterBytes\":31457280,\"concurrentCycles\":false}"), g1);
    }

    @Test
    void unavailableCpuIsSaidAndPausesAloneCanRaiseTheAlarm() {
        GcCost gc = new GcCost("Parallel", HeapSizing.UNKNOWN, 10_000_000_000L,
                List.of(new CollectorCost("PS Scavenge", CollectorCost.Kind.PAUSES, 50, 900)), HeapAroundGc.NONE,
                GcCpu.unavailable("no per-thread CPU figures on this platform"));
        String t = new String(ProfileWriter.toBytes(profile(gc), ProfileFormat.TEXT), StandardCharsets.UTF_8);
        assertTrue(t.contains("GC CPU: unavailable (no per-thread CPU figures on this platform)"), t);
        assertTrue(t.contains("collector: Parallel; heap: unknown"), t);
        assertTrue(t.contains(">> GC paused this JVM 9% of the time over the last 10.0 s"), t);
        String j = new String(ProfileWriter.toBytes(profile(gc), ProfileFormat.JSON), StandardCharsets.UTF_8);
        assertTrue(j.contains("\"available\":false,\"unavailableReason\":\"no per-thread CPU figures on this platform\","
                + "\"gcThreadNanos\":0,\"processNanos\":0,\"share\":-1,\"gcCores\":-1,"), j);
    }

    @Test
    void pprofCommentsCarryTheGcCost() {
        List<String> comments = PprofWriter.comments(profile());
        assertTrue(comments.stream().anyMatch(c -> c.startsWith("heaptap: inuse_* is the proven live part")), comments::toString);
        assertTrue(comments.contains("heaptap: collector: G1; heap: max 256.0 MiB, committed 256.0 MiB, used 40.0 MiB, initial 16.0 MiB"),
                comments::toString);
        assertTrue(comments.stream().anyMatch(c -> c.startsWith("heaptap: gc: GC used 40% of this JVM's CPU")), comments::toString);
        assertTrue(comments.stream().anyMatch(c -> c.startsWith("heaptap: gc: GC CPU: 24.0s of 1m0s")), comments::toString);
    }

    @Test
    void jsonNamesEveryFigureAsCountOrEstimate() {
        String j = text(ProfileFormat.JSON);
        assertTrue(j.startsWith("{\"schema\":\"heaptap-profile\",\"version\":3,"), j);
        assertTrue(j.contains("\"live\":{\"tracked\":2,\"proven\":{\"tracked\":1,\"estimatedObjects\":1000,\"estimatedObjectsLow\":"), j);
        assertTrue(j.contains("\"unexamined\":{\"tracked\":1,\"estimatedObjects\":1000,"), j);
        assertTrue(j.contains("\"impossible\":false,\"minAgeMillis\":5000,\"medianAgeMillis\":5000,\"maxAgeMillis\":20000,"
                + "\"minGcs\":3,\"medianGcs\":3,\"maxGcs\":9,\"provenMaxAgeMillis\":20000,\"letGo\":null}"), j);
        assertTrue(j.contains("\"markings\":{\"completed\":3,\"inCapture\":2,\"forced\":1,"), j);
        assertTrue(j.contains("\"liveTypes\":[{\"type\":\"app.Entry\",\"tracked\":2,"), j);
        assertTrue(j.contains("\"samplesWithoutStack\":2"), j);
        assertTrue(j.contains("{\"type\":\"byte[]\",\"samples\":200,\"estimatedObjects\":400,\"estimatedBytes\":128000000,\"estimatedBytesLow\":128000000,\"estimatedBytesHigh\":128000000,\"truncated\":true,"), j);
        assertTrue(j.contains("{\"class\":\"app.Parser\",\"method\":\"parse\",\"file\":\"Parser.java\",\"line\":7}"), j);
        assertTrue(j.contains("\"gc\":{\"collector\":\"G1\",\"heap\":{\"initialBytes\":16777216,\"usedBytes\":41943040,"
                + "\"committedBytes\":268435456,\"maxBytes\":268435456},\"windowMillis\":30000,\"collections\":402,"
                + "\"pauseMillis\":2400,\"pauseShare\":0.080,\"collectors\":[{\"name\":\"G1 Young Generation\",\"kind\":\"pauses\","
                + "\"collections\":400,\"timeMillis\":2000},"), j);
        assertTrue(j.contains("\"cpu\":{\"available\":true,\"unavailableReason\":null,\"gcThreadNanos\":24000000000,"
                + "\"processNanos\":60000000000,\"share\":0.400,\"gcCores\":0.800,\"gcThreads\":4,\"note\":null,"
                + "\"threadNames\":[\"GC Thread#\",\"G1 Conc#\"]}"), j);
        assertTrue(j.contains("\"alarm\":\"GC used 40% of this JVM's CPU and paused it 8% of the time"), j);
    }

    @Test
    void htmlIsSelfContained() {
        String h = text(ProfileFormat.HTML);
        assertTrue(h.contains("d3.hierarchy"));
        assertTrue(h.contains("\"n\":\"app.Parser.parse(Parser.java:7)\""), "frames are in the embedded data");
        assertTrue(!h.contains("src=\"http") && !h.contains("href=\"http"), "nothing loaded from the network");
    }

    @Test
    void htmlCarriesTheDumpsCensusOrWhyThereIsNone() {
        ClassCensus c = new ClassCensus(0, 3 << 20, 64 << 20, 12, List.of(new ClassCount("app.Order", 10, 2 << 20)),
                new ClassCount("9 other classes", 100, 1 << 20), 9, 110, 3 << 20);
        String taken = html(profile().withCensus(DumpCensus.of(c)));
        assertTrue(taken.contains("{\"name\":\"app.Order\",\"bytes\":2097152,\"percent\":66.667"), taken);
        assertTrue(taken.contains("\"name\":\"(9 other classes)\",\"bytes\":1048576"), "the rest as one row");
        assertTrue(taken.contains("\"taken\":true"));
        String refused = html(profile().withCensus(DumpCensus.refused("the JVM refused it")));
        assertTrue(refused.contains("\"census\":{\"lines\":[\"Class census: not taken (the JVM refused it)\"],\"classes\":[],"
                + "\"taken\":false}"), refused);
        assertTrue(text(ProfileFormat.HTML).contains("\"census\":null"), "no census without --gc");
    }

    private static String html(AllocationProfile p) {
        return new String(ProfileWriter.toBytes(p, ProfileFormat.HTML), StandardCharsets.UTF_8);
    }

    @Test
    void protoVarintsAndStringsFollowTheWireFormat() {
        assertArrayEquals(new byte[] {0x08, (byte) 0xAC, 0x02}, new ProtoWriter().uint64(1, 300).toByteArray());
        assertArrayEquals(new byte[] {0x32, 0x00}, new ProtoWriter().string(6, "").toByteArray());
        assertArrayEquals(new byte[] {0x0A, 0x03, 0x01, (byte) 0x96, 0x01}, new ProtoWriter().packed(1, new long[] {1, 150}).toByteArray());
        assertEquals(11, new ProtoWriter().uint64(1, -1L).toByteArray().length, "negative int64 takes ten bytes");
    }

    @Test
    void syntheticAddressesAreStableNonZeroAndUnique() {
        Set<Long> used = new HashSet<>();
        long a = PprofWriter.syntheticAddress(PARSE, used);
        assertEquals(a, PprofWriter.syntheticAddress(PARSE, new HashSet<>()), "same frame, same address in every profile");
        assertTrue(a != 0);
        long again = PprofWriter.syntheticAddress(PARSE, used);
        assertTrue(again != a, "a collision moves to a free address");
    }

    @Test
    void formatsFromFileNames() {
        assertEquals(Optional.of(ProfileFormat.PPROF), ProfileFormat.fromFileName("x.pb.gz"));
        assertEquals(Optional.of(ProfileFormat.COLLAPSED), ProfileFormat.fromFileName("x.folded"));
        assertEquals(Optional.of(ProfileFormat.HTML), ProfileFormat.fromFileName("X.HTML"));
        assertEquals(Optional.empty(), ProfileFormat.fromFileName("x.data"));
    }
}
