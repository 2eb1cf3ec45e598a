package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The one top-N ranking behind the MBean, /api/top and the text table. */
class TopSitesTest {
    private static AllocationSite site(String type, double bytes, LiveStats live) {
        return new AllocationSite(List.of(new Frame("app.Main", "main", "Main.java", 1)), false, type, 10, bytes / 16, bytes, 0, 0,
                live);
    }

    private static AllocationProfile profile(AllocationSite... sites) {
        CaptureInfo info = new CaptureInfo(new TargetInfo(1, "17", "vm", "app.Main"), Instant.EPOCH, 1, 524_288, 64, 30,
                new Drops(0, 0, 0, 0, 0, 0, 0), List.of(), null);
        LiveInfo live = new LiveInfo(true, 65536, 1, 1.0, 1, 0, 0, 0, 0, 1, 1, LiveFilter.NONE, false, Markings.NONE,
                1L << 30, 1L << 30);
        return new AllocationProfile(info, live, List.of(sites));
    }

    @Test
    void ranksCutsAtNAndSharesOfTheAllocatedTotal() {
        LiveStats kept = LiveStats.of(List.of(new TrackedObject(32, 100, 3_200, Duration.ofSeconds(5).toNanos(), 2, true, false)));
        AllocationProfile p = profile(site("small", 100, LiveStats.NONE), site("big", 300, LiveStats.NONE), site("kept", 600, kept));

        List<TopSites.Row> alloc = TopSites.byAllocatedBytes(p, 2);
        assertEquals(List.of("kept", "big"), alloc.stream().map(r -> r.site().type()).toList());
        assertEquals(List.of(1, 2), alloc.stream().map(TopSites.Row::rank).toList());
        assertEquals(60.0, alloc.get(0).percent(), 1e-9);
        assertEquals(30.0, alloc.get(1).percent(), 1e-9);
        assertEquals(3, TopSites.byAllocatedBytes(p, 10).size());
        assertEquals(0, TopSites.byAllocatedBytes(p, 0).size());

        List<TopSites.Row> live = TopSites.byLiveBytes(p, 10);
        assertEquals(List.of("kept"), live.stream().map(r -> r.site().type()).toList(), "only sites that hold live objects");
        assertEquals(kept.unexamined().bytes().value() + kept.heldUnexamined().bytes().value(), live.get(0).unexaminedBytes(), 1e-9);
    }

    @Test
    void nothingAllocatedIsZeroPercent() {
        assertEquals(0.0, TopSites.byAllocatedBytes(profile(site("none", 0, LiveStats.NONE)), 5).get(0).percent());
    }
}
