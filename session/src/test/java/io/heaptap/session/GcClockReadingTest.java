package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;

import org.junit.jupiter.api.Test;

/** The two GC clocks read in agreement: a pause between the reads is retried, a reading that never agrees is none. */
class GcClockReadingTest {
    /** Scripted reads: each call of a supplier takes the next value of its queue. */
    private final Deque<Long> beans = new ArrayDeque<>();
    private final Deque<Long> events = new ArrayDeque<>();
    private final Deque<Long> nanos = new ArrayDeque<>();

    /** One try: beans, events, beans, events; a pause moved one of the second reads when {@code moved}. */
    private void tryRead(long at, long beanCount, long eventCount, boolean moved, boolean beansMoved) {
        nanos.add(at);
        beans.add(beanCount);
        events.add(eventCount);
        beans.add(moved && beansMoved ? beanCount + 1 : beanCount);
        events.add(moved && !beansMoved ? eventCount + 1 : eventCount);
    }

    private GcClockReading take() {
        return GcClockReading.take(nanos::remove, beans::remove, events::remove);
    }

    @Test
    void aReadingThatAgreesAtOnce() {
        tryRead(100, 10, 12, false, false);
        assertEquals(new GcClockReading(100, 10, 12), take());
    }

    @Test
    void aPauseBetweenTheReadsIsRetried() {
        tryRead(150, 10, 10, true, true);  // a young pause moved the beans' second read
        tryRead(160, 11, 11, false, false);
        assertEquals(new GcClockReading(160, 11, 11), take());
        assertTrue(beans.isEmpty() && events.isEmpty() && nanos.isEmpty(), "every scripted read was taken");
    }

    @Test
    void aReadingThatNeverAgreesIsNone() {
        for (int i = 0; i < GcClockReading.TRIES; i++) {
            tryRead(200 + i, 11 + i, 13 + 2 * i, true, i % 2 == 0);
        }
        assertNull(take());
        assertTrue(beans.isEmpty() && events.isEmpty() && nanos.isEmpty(), "gave up after " + GcClockReading.TRIES + " tries");
    }
}
