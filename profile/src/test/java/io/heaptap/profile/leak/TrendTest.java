package io.heaptap.profile.leak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TrendTest {
    static final long[] T = {0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000};

    @Test
    void aStraightLineHasItsSlopePerMinuteAndRisesSurely() {
        Trend t = Trend.of(T, new double[] {0, 10, 20, 30, 40, 50, 60});
        assertEquals(60, t.slopePerMinute(), 1e-9);
        assertTrue(t.risingProbability() > 0.99, t.toString());
    }

    @Test
    void oneOutlierDoesNotMoveTheSlope() {
        Trend t = Trend.of(T, new double[] {0, 10, 20, 3000, 40, 50, 60});
        assertEquals(60, t.slopePerMinute(), 1e-9);
    }

    @Test
    void aStepUpAtTheStartIsNotATrend() {
        Trend t = Trend.of(T, new double[] {0, 100, 100, 100, 100, 100, 100});
        assertEquals(0, t.slopePerMinute(), 1e-9);
        assertTrue(t.risingProbability() < 0.95, t.toString());
    }

    @Test
    void aFallingSeriesIsSurelyNotRising() {
        Trend t = Trend.of(T, new double[] {60, 50, 40, 30, 20, 10, 0});
        assertTrue(t.risingProbability() < 0.01, t.toString());
        assertEquals(Trend.NONE, Trend.of(new long[] {1}, new double[] {1}));
    }

    @Test
    void theNormalCdfIsRight() {
        assertEquals(0.5, Trend.normalCdf(0), 1e-7);
        assertEquals(0.975, Trend.normalCdf(1.959964), 1e-6);
        assertEquals(0.0228, Trend.normalCdf(-2), 1e-4);
    }
}
