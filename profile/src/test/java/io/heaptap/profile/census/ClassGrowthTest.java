package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.Estimate;

import java.util.List;

import org.junit.jupiter.api.Test;

class ClassGrowthTest {
    static final long MB = 1L << 20;

    static ClassCensus census(long atMillis, ClassCount... top) {
        return new ClassCensus(atMillis, 0, 0, 0, List.of(top), new ClassCount("0 other classes", 0, 0), 0, 0, 0);
    }

    @Test
    void classGrowthIsExactAndSitesShareItWithIntervals() {
        ClassCensus first = census(10_000, new ClassCount("Order", 1_000, 100 * MB), new ClassCount("byte[]", 10, 900 * MB),
                new ClassCount("Gone", 5, 5 * MB), new ClassCount("jdk.internal.vm.FillerElement[]", 5, 2 * MB));
        ClassCensus last = census(130_000, new ClassCount("Order", 13_000, 112 * MB), new ClassCount("byte[]", 10, 890 * MB),
                new ClassCount("New", 5, 50 * MB), new ClassCount("jdk.internal.vm.FillerElement[]", 50, 30 * MB));
        // Two sites of Order grew: 9 MiB (many samples: a tight interval) and 1 MiB (few: a wide one).
        List<ClassGrowth.SiteGrowth> sites = List.of(
                new ClassGrowth.SiteGrowth("Orders.leak", "Order", new Estimate(9.0 * MB, 9.0 * MB * 64 * 1024)),
                new ClassGrowth.SiteGrowth("Orders.audit", "Order", new Estimate(1.0 * MB, 1.0 * MB * 256 * 1024)),
                new ClassGrowth.SiteGrowth("Cache.fill", "byte[]", new Estimate(5.0 * MB, 5.0 * MB * 1024)));
        List<ClassGrowth> grown = ClassGrowth.between(first, last, sites);
        assertEquals(1, grown.size(), "byte[] fell; New has no exact start; Gone is gone; G1's fillers are dead space: " + grown);
        ClassGrowth order = grown.get(0);
        assertEquals("Order", order.name());
        assertEquals(6.0 * MB, order.bytesPerMinute(), 1, "12 MiB in 2 minutes, exactly");
        assertEquals(12_000, order.instancesGrowth());
        ClassGrowth.SiteShare leak = order.sites().get(0);
        assertEquals("Orders.leak", leak.allocatedAt());
        assertEquals(0.9, leak.share(), 1e-9);
        assertEquals(5.4 * MB, leak.bytesPerMinute(), 1);
        assertTrue(leak.shareLow() < 0.9 && leak.shareHigh() > 0.9 && leak.shareHigh() <= 1, leak.toString());
        assertTrue(leak.bytesPerMinuteLow() < leak.bytesPerMinute() && leak.bytesPerMinute() < leak.bytesPerMinuteHigh());
        assertEquals(0.1, order.sites().get(1).share(), 1e-9);
    }

    /** A class grown by objects no sampled site accounts for: the one site that grew by chance gets its own part, not all. */
    @Test
    void growthTheSitesCannotExplainIsNotHandedToOneOfThem() {
        ClassCensus first = census(10_000, new ClassCount("byte[]", 1_000_000, 1_000 * MB));
        ClassCensus last = census(130_000, new ClassCount("byte[]", 1_003_000, 1_006 * MB));
        // A cache's proven live bytes rose 0.5 MiB between the censuses, give or take 1 MiB; the class rose 6 MiB.
        List<ClassGrowth.SiteGrowth> sites = List.of(new ClassGrowth.SiteGrowth("Cache.fill", "byte[]",
                new Estimate(0.5 * MB, Math.pow(0.5 * MB, 2))));
        ClassGrowth bytes = ClassGrowth.between(first, last, sites).get(0);
        assertEquals(3.0 * MB, bytes.bytesPerMinute(), 1, "exact");
        ClassGrowth.SiteShare cache = bytes.sites().get(0);
        assertEquals(0.5 / 6, cache.share(), 1e-9);
        assertTrue(cache.shareHigh() < 0.5 && cache.shareLow() < 0.01, cache.toString());
        assertEquals(0.25 * MB, cache.bytesPerMinute(), 1, "its own 0.5 MiB in two minutes");
    }
}

