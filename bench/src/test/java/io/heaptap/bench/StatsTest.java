package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The overhead table's mean and 95% interval, against figures worked by hand. */
class StatsTest {
    @Test
    void meanIntervalUsesStudentsTFromTheValuesOwnSpread() {
        // mean 3, standard deviation sqrt(2.5), standard error 0.7071, t(4) = 2.776: half-width 1.963
        assertEquals("3.000 (1.037–4.963)", new Stats(List.of(1.0, 2.0, 3.0, 4.0, 5.0)).meanInterval());
    }

    @Test
    void oneValueHasNoInterval() {
        assertEquals("0.990 (one value)", new Stats(List.of(0.99)).meanInterval());
    }

    @Test
    void studentsTApproachesTheNormalQuantile() {
        assertEquals(12.706, Stats.studentT975(1));
        assertEquals(2.042, Stats.studentT975(30));
        assertEquals(2.021, Stats.studentT975(40), 0.002);
        assertEquals(1.962, Stats.studentT975(1000), 0.002);
        assertThrows(IllegalArgumentException.class, () -> Stats.studentT975(0));
    }
}
