package io.heaptap.profile.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.TrackedObject;
import io.heaptap.profile.TargetInfo;

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

    static AllocationProfile profile() {
        CaptureInfo info = new CaptureInfo(new TargetInfo(4242, "25.0.1", "OpenJDK 64-Bit Server VM", "app.Main"),
                Instant.parse("2026-11-21T10:00:00Z"), 30_000_000_000L, 524_288, 64, 300,
                new Drops(0, 2, 0, 1, 0, 0, 0), List.of("a warning"));
        LiveStats cacheLive = LiveStats.of(List.of(
                new TrackedObject(32, 1000, 32_000, Duration.ofSeconds(5).toNanos(), 3),
                new TrackedObject(32, 1000, 32_000, Duration.ofSeconds(20).toNanos(), 9)));
        LiveInfo liveInfo = new LiveInfo(true, 65536, 2, 1.0, 10, 0, 0, 0, 8, 2, 12, LiveFilter.NONE, false);
        return new AllocationProfile(info, liveInfo, List.of(
                new AllocationSite(List.of(CACHE_PUT, MAIN), false, "app.Entry", 100, 2_000_000.4, 64_000_000.6, cacheLive),
                new AllocationSite(List.of(PARSE, MAIN), true, "byte[]", 200, 400.0, 128_000_000.0, LiveStats.NONE),
                new AllocationSite(List.of(), false, "java.lang.String", 1, 10, 240, LiveStats.NONE)));
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

    @Test
    void textShowsEstimatesSamplesDropsAndWarnings() {
        String t = text(ProfileFormat.TEXT);
        assertTrue(t.contains("pid 4242"), t);
        assertTrue(t.contains("interval 512.0 KiB, depth 64, 300 samples"), t);
        assertTrue(t.contains("dropped: 2 samples without stack (stack table full), 1 stacks cut at the depth limit"), t);
        assertTrue(t.contains("warning: a warning"), t);
        assertTrue(t.contains("   1     122.1 MiB   66.7%"), t);
        assertTrue(t.contains("at app.Parser.parse(Parser.java:7)"), t);
        assertTrue(t.contains("Live objects now: 62.5 KiB in 2000 objects (estimated from 2 tracked of a 65,536 budget; "
                + "keep-probability 1, never thinned; 12 GCs seen)"), t);
        assertTrue(t.contains("5.0s/5.0s/20.0s"), t);
    }

    @Test
    void jsonNamesEveryFigureAsCountOrEstimate() {
        String j = text(ProfileFormat.JSON);
        assertTrue(j.startsWith("{\"schema\":\"heaptap-profile\",\"version\":2,"), j);
        assertTrue(j.contains("\"live\":{\"tracked\":2,\"estimatedObjects\":2000,\"estimatedBytes\":64000,\"minAgeMillis\":5000,"
                + "\"medianAgeMillis\":5000,\"maxAgeMillis\":20000,\"minGcs\":3,\"medianGcs\":3,\"maxGcs\":9}"), j);
        assertTrue(j.contains("\"liveTypes\":[{\"type\":\"app.Entry\",\"tracked\":2,"), j);
        assertTrue(j.contains("\"samplesWithoutStack\":2"), j);
        assertTrue(j.contains("{\"type\":\"byte[]\",\"samples\":200,\"estimatedObjects\":400,\"estimatedBytes\":128000000,\"truncated\":true,"), j);
        assertTrue(j.contains("{\"class\":\"app.Parser\",\"method\":\"parse\",\"file\":\"Parser.java\",\"line\":7}"), j);
    }

    @Test
    void htmlIsSelfContained() {
        String h = text(ProfileFormat.HTML);
        assertTrue(h.contains("d3.hierarchy"));
        assertTrue(h.contains("\"n\":\"app.Parser.parse(Parser.java:7)\""), "frames are in the embedded data");
        assertTrue(!h.contains("src=\"http") && !h.contains("href=\"http"), "nothing loaded from the network");
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
