package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class TimeToOomTest {
    static final long MB = 1L << 20;

    @Test
    void aSteadyLeakOnAnExactLineGivesTheExactTime() {
        List<TimeToOom.Point> points = new ArrayList<>();
        for (int i = 0; i <= 12; i++) {  // 10 MiB a minute from 1 GiB, every 10 s
            points.add(new TimeToOom.Point(i * 10_000L, 1_024 * MB + i * 10 * MB / 6));
        }
        TimeToOom t = TimeToOom.of(points, 2_048 * MB);
        assertTrue(t.trend());
        assertEquals(10.0 * MB, t.bytesPerMinute(), 1);
        // At 2 minutes the heap holds 1,044 MiB: 1,004 MiB left at 10 MiB a minute.
        assertEquals(100.4 * 60_000, t.millis(), 1_000);
        assertTrue(t.millisLow() <= t.millis() && t.millis() <= t.millisHigh());
    }

    @Test
    void theTrueTimeIsInsideTheIntervalOfANoisyLeakMostOfTheTime() {
        Random random = new Random(36);
        int covered = 0;
        int runs = 400;
        for (int run = 0; run < runs; run++) {
            List<TimeToOom.Point> points = new ArrayList<>();
            for (int i = 0; i <= 12; i++) {
                points.add(new TimeToOom.Point(i * 10_000L, Math.round(1_024 * MB + i * 10 * MB / 6 + random.nextGaussian() * 2 * MB)));
            }
            TimeToOom t = TimeToOom.of(points, 2_048 * MB);
            long truth = Math.round((2_048 - 1_044) / 10.0 * 60_000);
            if (t.trend() && t.millisLow() <= truth && truth <= t.millisHigh()) {
                covered++;
            }
        }
        // The slope's 95% interval; the level's noise moves the time a little more: at least 90% covered.
        assertTrue(covered >= 0.9 * runs, "covered " + covered + " of " + runs);
    }

    @Test
    void aFlatOrFallingOrNoisyHeapHasNoTrend() {
        Random random = new Random(1);
        List<TimeToOom.Point> flat = new ArrayList<>();
        List<TimeToOom.Point> falling = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            flat.add(new TimeToOom.Point(i * 10_000L, Math.round(1_024 * MB + random.nextGaussian() * 50 * MB)));
            falling.add(new TimeToOom.Point(i * 10_000L, 1_024 * MB - i * MB));
        }
        assertFalse(TimeToOom.of(falling, 2_048 * MB).trend());
        assertEquals(-1, TimeToOom.of(falling, 2_048 * MB).millis());
        TimeToOom noisy = TimeToOom.of(flat, 2_048 * MB);
        assertFalse(noisy.trend(), noisy.toString());
        assertTrue(noisy.bytesPerMinuteLow() <= 0);
    }

    @Test
    void twoPointsOrNoMaximumGiveNothing() {
        assertNull(TimeToOom.of(List.of(new TimeToOom.Point(0, 1), new TimeToOom.Point(1, 2)), 100));
        assertNull(TimeToOom.of(List.of(new TimeToOom.Point(0, 1), new TimeToOom.Point(1, 2), new TimeToOom.Point(2, 3)), 0));
    }
}
