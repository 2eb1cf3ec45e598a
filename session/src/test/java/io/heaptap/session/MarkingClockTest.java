package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The liveness-proof clock on synthetic notifications: what counts, what each marking proves, heaptap's own collections once. */
class MarkingClockTest {
    static final long ORIGIN = 1_000_000_000L;

    static long at(long millis) {
        return ORIGIN + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void youngCollectionsProveNothingAndFullOnesProveWhatCameBeforeTheirStart() {
        MarkingClock c = new MarkingClock(ORIGIN, List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation"), false);
        c.onCollection("G1 Young Generation", "G1 Evacuation Pause", 1, 100, 110);
        assertEquals(0, c.completed());
        assertEquals(Long.MIN_VALUE, c.provenBeforeNanos());
        c.onCollection("G1 Old Generation", "System.gc()", 1, 200, 260);
        assertEquals(1, c.completed());
        assertEquals(at(200), c.provenBeforeNanos());
        assertEquals("", c.limitation());
    }

    @Test
    void concurrentCyclesProveWhatCameBeforeTheirStart() {
        for (String bean : List.of("ZGC Cycles", "ZGC Major Cycles", "Shenandoah Cycles")) {
            MarkingClock c = new MarkingClock(ORIGIN, List.of(bean), false);
            c.onCollection(bean, "System.gc()", 1, 300, 450);
            assertEquals(1, c.completed(), bean);
            assertEquals(at(300), c.provenBeforeNanos(), bean);
            c.onCollection(bean.replace("Cycles", "Pauses").replace("Major", "Minor"), "Allocation Rate", 1, 500, 501);
            assertEquals(1, c.completed(), "pauses are not markings: " + bean);
        }
    }

    /** Generational Shenandoah names its beans as its single-generation mode does; its own cycles, young mostly, prove nothing. */
    @Test
    void generationalShenandoahsOwnCyclesProveNothing() {
        List<String> beans = List.of("Shenandoah Pauses", "Shenandoah Cycles");
        MarkingClock generational = new MarkingClock(ORIGIN, beans, true);
        generational.onCollection("Shenandoah Cycles", "Concurrent GC", 1, 300, 450);
        assertEquals(0, generational.completed());
        assertEquals(Long.MIN_VALUE, generational.provenBeforeNanos());
        assertTrue(generational.limitation().contains("generational Shenandoah"), generational.limitation());
        generational.onCollection("Shenandoah Cycles", "System.gc()", 2, 600, 690);
        assertEquals(1, generational.completed());
        assertEquals(at(600), generational.provenBeforeNanos());

        MarkingClock single = new MarkingClock(ORIGIN, beans, false);
        single.onCollection("Shenandoah Cycles", "Concurrent GC", 1, 300, 450);
        assertEquals(1, single.completed());
        assertEquals(at(300), single.provenBeforeNanos());
        assertEquals("", single.limitation());
    }

    @Test
    void generationalZgcsOwnMajorCyclesProveNothing() {
        MarkingClock c = new MarkingClock(ORIGIN, List.of("ZGC Minor Cycles", "ZGC Minor Pauses", "ZGC Major Cycles", "ZGC Major Pauses"), false);
        c.onCollection("ZGC Major Cycles", "Allocation Rate", 1, 300, 450);
        c.onCollection("ZGC Major Cycles", "Proactive", 2, 600, 750);
        assertEquals(0, c.completed());
        assertEquals(Long.MIN_VALUE, c.provenBeforeNanos());
        assertTrue(c.limitation().contains("generational ZGC"), c.limitation());
        c.onCollection("ZGC Major Cycles", "System.gc()", 3, 900, 990);
        assertEquals(1, c.completed());
        assertEquals(at(900), c.provenBeforeNanos());
    }

    @Test
    void aG1PauseProvesOnlyWhatCameBeforeThePauseThreeEarlier() {
        MarkingClock c = new MarkingClock(ORIGIN, List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation"), false);
        c.onCollection("G1 Concurrent GC", "No GC", 1, 1000, 1001);  // Remark of cycle 1: its start is unknown
        c.onCollection("G1 Concurrent GC", "No GC", 2, 1040, 1041);  // Cleanup of cycle 1
        c.onCollection("G1 Concurrent GC", "No GC", 3, 5000, 5002);  // Remark of cycle 2: it began after cycle 1's Cleanup
        assertEquals(Long.MIN_VALUE, c.provenBeforeNanos(), "cycle 1 began at an unknown time");
        c.onCollection("G1 Concurrent GC", "No GC", 4, 5050, 5051);  // Cleanup of cycle 2
        assertEquals(at(1001), c.provenBeforeNanos(), "the end of the pause three notifications back");
        c.onCollection("G1 Concurrent GC", "No GC", 5, 9000, 9003);  // a Remark of cycle 3 that overflowed: completes nothing
        assertEquals(at(1041), c.provenBeforeNanos(), "cycle 2, the last completed, began after cycle 1's Cleanup; not after its Remark");
        c.onCollection("G1 Concurrent GC", "No GC", 6, 9500, 9504);  // cycle 3's completing Remark
        assertEquals(at(5002), c.provenBeforeNanos());
        assertEquals(3, c.completed(), "a marking per Remark (odd count), the overflowed one too");
    }

    @Test
    void jdk11To19G1PausesFromGcEventsCountEverySecondAndProveWhatCameBeforeTheThirdBack() {
        MarkingClock c = new MarkingClock(ORIGIN, List.of("G1 Young Generation", "G1 Old Generation"), false);
        assertEquals("", c.limitation(), "the concurrent cycles are seen");
        c.onG1ConcurrentPauses(1, at(1000));  // a Remark or a Cleanup: unknown which
        assertEquals(0, c.completed());
        c.onG1ConcurrentPauses(2, at(2000));
        assertEquals(1, c.completed(), "three pauses hold at least one Remark; counted at every second");
        assertEquals(Long.MIN_VALUE, c.provenBeforeNanos());
        c.onG1ConcurrentPauses(1, at(3000));
        assertEquals(2, c.completed());
        assertEquals(at(1000), c.provenBeforeNanos(), "the fourth pause proves what came before the first one's lower bound");
        c.onG1ConcurrentPauses(2, at(4000));
        assertEquals(3, c.completed());
        assertEquals(at(2000), c.provenBeforeNanos());
    }

    @Test
    void heaptapsForcedCollectionIsCountedOnceWhetherItsNotificationComesFirstOrLast() {
        MarkingClock c = new MarkingClock(ORIGIN, List.of("PS Scavenge", "PS MarkSweep"), false);
        c.beginForced();
        c.onCollection("PS MarkSweep", MarkingClock.FORCED_CAUSE, 1, 10, 20);  // the notification first
        c.forced(at(5));
        assertEquals(1, c.completed());
        c.beginForced();
        c.forced(at(100));
        c.onCollection("PS MarkSweep", MarkingClock.FORCED_CAUSE, 2, 101, 110);  // the notification last
        assertEquals(2, c.completed());
        assertEquals(2, c.forcedCount());
        c.onCollection("PS MarkSweep", MarkingClock.FORCED_CAUSE, 3, 200, 210);  // another agent's
        assertEquals(3, c.completed());
        assertTrue(c.provenBeforeNanos() >= at(200));
    }

    @Test
    void unknownCollectorsSayWhatTheyCannotSee() {
        MarkingClock epsilon = new MarkingClock(ORIGIN, List.of(), false);
        epsilon.beginForced();
        epsilon.forced(at(10));
        assertEquals(0, epsilon.completed(), "a collector that marks nothing proves nothing, even when forced");
        assertEquals(Long.MIN_VALUE, epsilon.provenBeforeNanos());
        assertTrue(epsilon.limitation().contains("nothing is proven"), epsilon.limitation());
    }
}
