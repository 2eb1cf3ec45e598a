package io.heaptap.profile.leak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.Markings;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.TrackedObject;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Snapshots into series: allocation deltas across re-armed captures, sites that die, bounds; and the writers. */
class LeakHistoryTest {
    static final LeakWatchInfo WATCH = new LeakWatchInfo(4242, Instant.parse("2026-11-21T10:00:00Z"), 60_000, 5_000, 60_000,
            524_288, "ended", "duration reached", 12, 150, 12, Instant.parse("2026-11-21T10:01:00Z"), "", true, List.of(40L, 35L), 40,
            0, new LeakHistory().footprint(), List.of());
    static final Frame LEAK = new Frame("app.Registry", "register", "Registry.java", 42);
    static final Frame TEMP = new Frame("app.Parser", "parse", "Parser.java", 7);

    static AllocationProfile profile(Instant captureStart, long gcCount, AllocationSite... sites) {
        CaptureInfo info = new CaptureInfo(new TargetInfo(4242, "17", "vm", "app.Main"), captureStart, 1, 524_288, 64, 10,
                new Drops(0, 0, 0, 0, 0, 0, 0), List.of(), null);
        // Here every collection is a whole-heap marking, so every tracked object (TrackedObject.proven) is proven.
        LiveInfo live = new LiveInfo(true, 65536, 1, 1.0, 1, 0, 0, 0, 0, 1, gcCount, LiveFilter.NONE, false,
                new Markings(gcCount, 0, 0, null, "", 50), 1 << 30, 1 << 30);
        return new AllocationProfile(info, live, List.of(sites));
    }

    static AllocationSite site(Frame frame, double allocatedBytes, long... liveAgesSeconds) {
        List<TrackedObject> objects = java.util.Arrays.stream(liveAgesSeconds)
                .mapToObj(age -> new TrackedObject(1024, 1, 1024, Duration.ofSeconds(age).toNanos(), age, true, false)).toList();
        return new AllocationSite(List.of(frame), false, "byte[]", 1, allocatedBytes / 1024, allocatedBytes, 0, 0, LiveStats.of(objects));
    }

    @Test
    void pointsHoldWhatWasAllocatedSinceThePreviousSnapshotEvenWhenACaptureIsReArmed() {
        Instant first = Instant.parse("2026-11-21T10:00:00Z");
        Instant second = first.plusSeconds(10);
        LeakHistory h = new LeakHistory();
        h.add(5_000, profile(first, 3, site(LEAK, 4096, 1, 2)));
        h.add(10_000, profile(first, 5, site(LEAK, 10_240, 1, 2, 6)));
        h.add(15_000, profile(second, 8, site(LEAK, 2048, 1, 2, 6, 11)));
        List<SitePoint> points = h.sites().get(0).points();
        assertEquals(List.of(4096.0, 6144.0, 2048.0), points.stream().map(SitePoint::allocatedBytes).toList());
        assertEquals(11_000, points.get(2).maxAgeMillis());
        assertEquals(4096, points.get(2).liveBytes(), 1e-9);
        assertEquals(5, h.gcs());
        assertEquals(3, h.snapshots());
    }

    @Test
    void aSiteThatDisappearsGetsEmptyPointsAndALateSiteStartsItsWindowAtThePreviousSnapshot() {
        Instant start = Instant.parse("2026-11-21T10:00:00Z");
        LeakHistory h = new LeakHistory();
        h.add(5_000, profile(start, 1, site(TEMP, 1 << 20, 0)));
        h.add(10_000, profile(start, 2, site(LEAK, 1024, 1)));
        SiteSeries temp = h.sites().stream().filter(s -> s.key().stack().get(0).equals(TEMP)).findFirst().orElseThrow();
        SiteSeries leak = h.sites().stream().filter(s -> s.key().stack().get(0).equals(LEAK)).findFirst().orElseThrow();
        assertEquals(0, temp.last().tracked());
        assertEquals(5_000, leak.windowStartMillis());
        assertEquals(1, leak.gcCountAtStart());
        assertThrows(IllegalArgumentException.class, () -> h.add(10_000, profile(start, 2)));
    }

    @Test
    void sitesAndPointsAreBounded() {
        Instant start = Instant.parse("2026-11-21T10:00:00Z");
        LeakHistory h = new LeakHistory(1, 4);
        for (int i = 1; i <= 9; i++) {
            h.add(i * 1000L, profile(start, i, site(LEAK, 1024.0 * i, 1, 2), site(TEMP, 1 << 20, 0)));
        }
        assertEquals(1, h.sites().size());
        assertEquals(1, h.sitesLeftOut());
        List<SitePoint> points = h.sites().get(0).points();
        assertTrue(points.size() <= 4, points.toString());
        assertEquals(1000, points.get(0).atMillis(), "the window's first point stays");
        assertEquals(9000, points.get(points.size() - 1).atMillis());
        assertEquals(9 * 1024, points.stream().mapToDouble(SitePoint::allocatedBytes).sum(), 1e-9, "merging keeps allocations");
    }

    @Test
    void aByteBoundFollowsFewerSitesAndKeepsFewerPointsOfEachAsSitesCome() {
        Instant start = Instant.parse("2026-11-21T10:00:00Z");
        long bound = 1 << 20;  // a 64 MiB heap's: a quarter of its 4 MiB heap budget
        LeakHistory h = new LeakHistory(bound);
        // 5 sites for 30 snapshots: the bound leaves them every point (up to 120).
        for (int i = 1; i <= 30; i++) {
            h.add(i * 1000L, profile(start, i, sites(5, i)));
        }
        assertEquals(30, h.sites().get(0).points().size());
        assertEquals(120, h.footprint().pointsPerSite());
        // Then 2,000 sites each snapshot: the bound admits as many as keep 8 points each, and the first five are merged down.
        for (int i = 31; i <= 60; i++) {
            h.add(i * 1000L, profile(start, i, sites(2000, i)));
        }
        HistoryFootprint f = h.footprint();
        long perSite = LeakHistory.SITE_BYTES + LeakHistory.MIN_POINTS_PER_SITE * LeakHistory.POINT_BYTES;
        assertEquals(bound / perSite, f.maxSites());
        assertEquals(f.maxSites(), f.sites());
        assertEquals(2000 - f.maxSites(), h.sitesLeftOut());
        assertEquals(LeakHistory.MIN_POINTS_PER_SITE, f.pointsPerSite());
        assertTrue(f.bytes() <= bound, f.toString());
        assertTrue(f.bounded());
        SiteSeries first = h.sites().get(0);
        assertTrue(first.points().size() <= LeakHistory.MIN_POINTS_PER_SITE, first.points().toString());
        assertEquals(1000, first.points().get(0).atMillis(), "the window's first point stays");
        assertEquals(60_000, first.last().atMillis());
        // Merging keeps what was allocated: 1 KiB a snapshot for the first 30, and as much again for the next 30.
        assertEquals(60 * 1024.0, first.points().stream().mapToDouble(SitePoint::allocatedBytes).sum(), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> new LeakHistory(1000));
        LeakWatchInfo w = WATCH;
        LeakWatchInfo bounded = new LeakWatchInfo(w.pid(), w.startedAt(), w.durationMillis(), w.everyMillis(), w.elapsedMillis(),
                w.intervalBytes(), w.state(), w.endReason(), w.snapshots(), w.gcs(), w.markings(), w.lastMarkingAt(),
                w.markingLimitation(), w.gcForced(), w.pausesMillis(), w.maxPauseMillis(), h.sitesLeftOut(), f, w.warnings());
        String text = new String(LeakFormat.TEXT.render(LeakReport.of(bounded, h.sites())), StandardCharsets.UTF_8);
        assertTrue(text.contains("history on the target's heap: ") && text.contains(" of its 1.0 MiB bound; " + f.sites()
                + " sites followed (at most " + f.maxSites() + "), each at most 8 points over the whole watch")
                && text.contains("sites left out at the last snapshot: " + h.sitesLeftOut()), text);
    }

    /** {@code n} sites of distinct stacks, each having allocated 1 KiB per snapshot up to snapshot {@code i}. */
    private static AllocationSite[] sites(int n, int i) {
        AllocationSite[] sites = new AllocationSite[n];
        for (int k = 0; k < n; k++) {
            sites[k] = site(new Frame("app.Site" + k, "make", "Site.java", k), 1024.0 * i, 1);
        }
        return sites;
    }

    @Test
    void theWritersShowVerdictsAndEvidence() {
        java.util.Random random = new java.util.Random(3);
        LeakReport report = LeakReport.of(WATCH, List.of(Synthetic.leak(random, 12, Synthetic.MB, 2),
                Synthetic.garbage(random, 12, 100 * Synthetic.MB)));
        String text = new String(LeakFormat.TEXT.render(report), StandardCharsets.UTF_8);
        assertTrue(text.contains("leak suspect") && text.contains("transient") && text.contains("at test.Workload.leak(Workload.java:1)"), text);
        String json = new String(LeakFormat.JSON.render(report), StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"version\":2,\"watch\":{\"pid\":4242"), json);
        assertTrue(json.contains("\"markings\":12") && json.contains("\"pausesMillis\":[40,35]"), json);
        assertTrue(text.contains("forced full collections (--gc): 2, the application paused 40ms at most"), text);
        assertTrue(json.contains("\"verdict\":\"leak suspect\"") && json.contains("\"series\":[{\"atMillis\":5000"), json);
        String html = new String(LeakFormat.HTML.render(report), StandardCharsets.UTF_8);
        assertTrue(html.contains("const HEAPTAP_LEAKS = {") && !html.contains("/*D3*/") && html.contains("d3"), "html");
        assertEquals(LeakFormat.HTML, LeakFormat.fromFileName("x.HTML"));
        assertThrows(IllegalArgumentException.class, () -> LeakFormat.parse("pprof"));
    }
}
