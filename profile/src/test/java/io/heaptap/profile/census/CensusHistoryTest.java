package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** A watch of days keeps two censuses and at most {@link CensusHistory#MAX_POINTS} heap readings, the first and last among them. */
class CensusHistoryTest {

    static ClassCensus census(long at) {
        return new ClassCensus(at, 1_000 + at, 10_000_000, 1, List.of(), new ClassCount("0 other classes", 0, 0), 0, 0, 0);
    }

    @Test
    void keepsTheFirstAndLastCensusAndABoundedEvenTrend() {
        CensusHistory h = new CensusHistory(HeapReading.COLLECTOR, io.heaptap.profile.census.HeapSlack.NONE);
        ClassCensus first = census(0);
        h.add(first, HeldByTracking.NONE, false);
        ClassCensus last = null;
        for (int i = 1; i < 10_000; i++) {
            last = census(i * 1_000L);
            h.add(last, HeldByTracking.NONE, false);
        }
        assertEquals(10_000, h.censuses());
        assertSame(first, h.first());
        assertSame(last, h.last());
        List<TimeToOom.Point> points = h.points();
        assertTrue(points.size() <= CensusHistory.MAX_POINTS && points.size() >= CensusHistory.MAX_POINTS / 2, "" + points.size());
        assertEquals(0, points.get(0).atMillis());
        assertEquals(last.atMillis(), points.get(points.size() - 1).atMillis());
        h.refused("no room");
        assertEquals("no room", h.refusal());
    }

    @Test
    void theLiveReadingLeavesOutWhatHeaptapTracksUnexamined() {
        CensusHistory h = new CensusHistory(HeapReading.CENSUS, io.heaptap.profile.census.HeapSlack.NONE);
        h.add(new ClassCensus(10_000, 3_000_000_000L, 4_000_000_000L, 1, List.of(), new ClassCount("9 other classes", 10, 0), 9, 10,
                1_100_000_000L), HeldByTracking.total(10_000_000), false);
        // The collector gave no figure: the census alone is a reading.
        h.add(new ClassCensus(20_000, 0, 4_000_000_000L, 1, List.of(), new ClassCount("9 other classes", 10, 0), 9, 10,
                1_100_000_000L), HeldByTracking.NONE, false);
        // heaptap's own never takes the reading below nothing.
        h.add(new ClassCensus(30_000, 0, 4_000_000_000L, 1, List.of(), new ClassCount("9 other classes", 10, 0), 9, 10, 5), HeldByTracking.total(10), false);
        List<TimeToOom.Point> points = h.points();
        assertEquals(2, points.size(), "a reading of 0 is none: " + points);
        assertEquals(1_090_000_000L, points.get(0).liveBytes());
        assertEquals(3_000_000_000L, points.get(0).heapBytes());
        assertEquals(1_100_000_000L, HeapReading.CENSUS.of(points.get(1)));
        assertSame(HeapReading.CENSUS, h.reading());

        CensusHistory collector = new CensusHistory(HeapReading.COLLECTOR, io.heaptap.profile.census.HeapSlack.NONE);
        collector.add(new ClassCensus(20_000, 0, 4_000_000_000L, 1, List.of(), new ClassCount("9 other classes", 10, 0), 9, 10,
                1_100_000_000L), HeldByTracking.NONE, false);
        assertEquals(List.of(), collector.points(), "no collector's figure, no reading of it");
    }

    @Test
    void whereTheCensusFollowsWeakReferencesItsClassesLeaveOutHeaptapsUnexaminedSamples() {
        ClassCensus counted = new ClassCensus(10_000, 3_000_000_000L, 4_000_000_000L, 1, List.of(new ClassCount("byte[]", 1_000, 900_000),
                new ClassCount("app.Order", 500, 600_000)), new ClassCount("9 other classes", 90, 9_000), 9, 1_590, 1_509_000);
        // heaptap held 400 arrays of 800,000 bytes, 2 orders and 10 objects of a class in the rest, none examined yet.
        HeldByTracking held = new HeldByTracking(java.util.Map.of("byte[]", new long[] {400, 800_000}, "app.Order", new long[] {2, 2_400},
                "app.Line", new long[] {10, 1_000}), 803_400);
        CensusHistory h = new CensusHistory(HeapReading.CENSUS, io.heaptap.profile.census.HeapSlack.NONE);
        h.add(counted, held, false);
        ClassCensus kept = h.last();
        assertEquals(List.of(new ClassCount("app.Order", 498, 597_600), new ClassCount("byte[]", 600, 100_000)), kept.top(),
                "each class less its part, in their new order");
        assertEquals(new ClassCount("9 other classes", 80, 8_000), kept.rest());
        assertEquals(1_590 - 412, kept.totalInstances());
        assertEquals(1_509_000 - 803_400, kept.totalBytes());
        assertEquals(kept.totalBytes(), h.points().get(0).liveBytes());
        assertEquals(803_400, h.lastHeldBytes());

        // Where the census walks the whole heap, dead or not, it stays as counted: only the live reading leaves them out.
        CensusHistory walked = new CensusHistory(HeapReading.COLLECTOR, io.heaptap.profile.census.HeapSlack.NONE);
        walked.add(counted, held, false);
        assertSame(counted, walked.last());
        assertEquals(1_509_000 - 803_400, walked.points().get(0).liveBytes());
        assertEquals(0, walked.lastHeldBytes());
    }
}
