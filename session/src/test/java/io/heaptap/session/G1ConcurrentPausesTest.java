package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.junit.jupiter.api.Test;

/** JDK 11-19's G1 concurrent pauses found from GC-event and bean counts: interleaved pauses, skewed readings, the bounds fed to the clock. */
class G1ConcurrentPausesTest {
    /** Scripted reads: each call of a supplier takes the next value of its queue. */
    static final class Script {
        final Deque<Long> beans = new ArrayDeque<>();
        final Deque<Long> events = new ArrayDeque<>();
        final Deque<Long> nanos = new ArrayDeque<>();

        /** A reading that agrees: beans, events, beans, events all as given, taken at {@code at}. */
        Script agreeing(long at, long beanCount, long eventCount) {
            nanos.add(at);
            beans.add(beanCount);
            events.add(eventCount);
            beans.add(beanCount);
            events.add(eventCount);
            return this;
        }

        /** A reading a pause skewed: the second read of one count differs. */
        Script skewed(long at, long beanCount, long eventCount, boolean beansMoved) {
            nanos.add(at);
            beans.add(beanCount);
            events.add(eventCount);
            beans.add(beansMoved ? beanCount + 1 : beanCount);
            events.add(beansMoved ? eventCount : eventCount + 1);
            return this;
        }

        G1ConcurrentPauses on(MarkingClock clock) {
            return new G1ConcurrentPauses(beans::remove, events::remove, nanos::remove, clock);
        }
    }

    static MarkingClock jdk17G1() {
        return new MarkingClock(0, List.of("G1 Young Generation", "G1 Old Generation"), false);
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
        Script s = new Script()
                .agreeing(100, 10, 10)   // baseline
                .agreeing(200, 13, 14)   // 3 young pauses and a Remark
                .agreeing(300, 15, 16)   // 2 young, no concurrent pause
                .agreeing(400, 16, 19)   // 1 young, a Cleanup, a Remark (three back: the first one, after 100)
                .agreeing(500, 16, 20);  // a Cleanup: the fourth pause proves what came before 100
        G1ConcurrentPauses pauses = s.on(clock);
        pauses.update();
        assertEquals(0, clock.completed());
        pauses.update();
        pauses.update();
        assertEquals(0, clock.completed());
        pauses.update();
        assertEquals(1, clock.completed(), "three pauses: at least one Remark");
        assertEquals(Long.MIN_VALUE, clock.provenBeforeNanos());
        pauses.update();
        assertEquals(2, clock.completed());
        assertEquals(100, clock.provenBeforeNanos(), "the first pause ended after the reading at 100: no later bound is known");
    }

    @Test
    void skewedReadingsAreRetriedAndSkippedAfterTheLastTry() {
        MarkingClock clock = jdk17G1();
        Script s = new Script().agreeing(100, 10, 10);
        s.skewed(150, 10, 10, true).agreeing(160, 11, 11);  // retried: a young pause skewed the first try
        for (int i = 0; i < GcClockReading.TRIES; i++) {
            s.skewed(200 + i, 11 + i, 13 + 2 * i, i % 2 == 0);  // never agrees: skipped
        }
        s.agreeing(300, 20, 22).agreeing(400, 20, 24);
        G1ConcurrentPauses pauses = s.on(clock);
        pauses.update();
        pauses.update();
        assertEquals(0, clock.completed());
        pauses.update();  // skipped: the baseline stays at the reading of 160
        assertEquals(0, clock.completed());
        pauses.update();  // (22 - 11) - (20 - 11) = 2 pauses, both after 160
        assertEquals(1, clock.completed());
        assertEquals(Long.MIN_VALUE, clock.provenBeforeNanos());
        pauses.update();  // 2 more after 300: the fourth proves what came before the first's bound
        assertEquals(2, clock.completed());
        assertEquals(160, clock.provenBeforeNanos());
        assertTrue(s.beans.isEmpty() && s.events.isEmpty() && s.nanos.isEmpty(), "every scripted read was taken");
    }

    @Test
    void eventsFallingShortOfTheBeansFindNoPauses() {
        MarkingClock clock = jdk17G1();
        Script s = new Script()
                .agreeing(100, 10, 10)
                .agreeing(200, 20, 10)   // events off: 10 young pauses unseen by them
                .agreeing(300, 21, 11)
                .agreeing(400, 21, 12)
                .agreeing(500, 21, 13);
        G1ConcurrentPauses pauses = s.on(clock);
        for (int i = 0; i < 5; i++) {
            pauses.update();
        }
        assertEquals(1, clock.completed(), "only the two events beyond the beans after 300 are pauses");
        assertEquals(Long.MIN_VALUE, clock.provenBeforeNanos());
    }
}
