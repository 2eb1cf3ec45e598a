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
        CensusHistory h = new CensusHistory();
        ClassCensus first = census(0);
        h.add(first);
        ClassCensus last = null;
        for (int i = 1; i < 10_000; i++) {
            last = census(i * 1_000L);
            h.add(last);
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
}
