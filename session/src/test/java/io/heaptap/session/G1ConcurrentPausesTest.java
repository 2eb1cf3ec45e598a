package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** JDK 11-19's G1 concurrent pauses found from GC-event and bean counts: interleaved pauses, readings out of order, the bounds fed to the clock. */
class G1ConcurrentPausesTest {
    static MarkingClock jdk17G1() {
        return new MarkingClock(0, List.of("G1 Young Generation", "G1 Old Generation"), false);
    }

    /** A reading taken at {@code at}: the beans' count of collections and the JVMTI finishes. */
    static GcClockReading reading(long at, long collections, long finishes) {
        return new GcClockReading(at, collections, finishes);
    }

    @Test
    void onlyG1WithoutTheConcurrentBeanNeedsIt() {
        assertTrue(G1ConcurrentPauses.needed(List.of("G1 Young Generation", "G1 Old Generation")));
        assertFalse(G1ConcurrentPauses.needed(List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation")));
        assertFalse(G1ConcurrentPauses.needed(List.of("PS Scavenge", "PS MarkSweep")));
        assertFalse(G1ConcurrentPauses.needed(List.of("ZGC Cycles", "ZGC Pauses")));
    }

    @Test
    void eventsBeyondTheBeansAreConcurrentPausesBoundedByTheEarlierReading() {
        MarkingClock clock = jdk17G1();
        G1ConcurrentPauses pauses = new G1ConcurrentPauses(clock);
        pauses.update(reading(100, 10, 10));  // baseline
        assertEquals(0, clock.completed());
        pauses.update(reading(200, 13, 14));  // 3 young pauses and a Remark
        pauses.update(reading(300, 15, 16));  // 2 young, no concurrent pause
        assertEquals(0, clock.completed());
        pauses.update(reading(400, 16, 19));  // 1 young, a Cleanup, a Remark (three back: the first one, after 100)
        assertEquals(1, clock.completed(), "three pauses: at least one Remark");
        assertEquals(Long.MIN_VALUE, clock.provenBeforeNanos());
        pauses.update(reading(500, 16, 20));  // a Cleanup: the fourth pause proves what came before 100
        assertEquals(2, clock.completed());
        assertEquals(100, clock.provenBeforeNanos(), "the first pause ended after the reading at 100: no later bound is known");
    }

    /**
     * Readings taken on two threads can arrive out of order. An older one, applied after a newer one, would
     * move the baseline back, and the next reading would count the pauses in between a second time.
     */
    @Test
    void anOlderReadingArrivingLateIsIgnored() {
        MarkingClock clock = jdk17G1();
        G1ConcurrentPauses pauses = new G1ConcurrentPauses(clock);
        pauses.update(reading(100, 10, 10));
        pauses.update(reading(300, 10, 11));  // one concurrent pause after 100: no marking completed yet
        pauses.update(reading(200, 10, 10));  // taken before the last, told after it: ignored
        pauses.update(reading(400, 10, 11));  // nothing new since 300
        assertEquals(0, clock.completed(), "one pause, counted once (twice would complete a marking)");
        pauses.update(reading(500, 10, 12));  // the second pause: a marking
        assertEquals(1, clock.completed());
    }

    @Test
    void eventsFallingShortOfTheBeansFindNoPauses() {
        MarkingClock clock = jdk17G1();
        G1ConcurrentPauses pauses = new G1ConcurrentPauses(clock);
        pauses.update(reading(100, 10, 10));
        pauses.update(reading(200, 20, 10));  // events off: 10 young pauses unseen by them
        pauses.update(reading(300, 21, 11));
        pauses.update(reading(400, 21, 12));
        pauses.update(reading(500, 21, 13));
        assertEquals(1, clock.completed(), "only the two events beyond the beans after 300 are pauses");
        assertEquals(Long.MIN_VALUE, clock.provenBeforeNanos());
    }
}
