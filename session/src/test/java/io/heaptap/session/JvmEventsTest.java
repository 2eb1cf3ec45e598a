package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The JVM's own sampling events: the agent's count, priced on JDK 11-24, and the interval they call for. */
class JvmEventsTest {
    private long counted;
    private long interval;

    @Test
    void theAgentsCountIsPricedAndTheLargestIntervalNoted() {
        JvmEvents events = new JvmEvents(17, () -> counted, () -> interval);
        assertEquals(0, events.events(), "nothing sampled yet");
        interval = 8 * 1024;
        counted = 10 * 1024;
        assertEquals(10 * 1024, events.events());
        interval = 64 * 1024;
        counted += 1024;
        assertEquals(11 * 1024, events.events());
        assertEquals(11 * 1024 * JvmEvents.NANOS_PER_EVENT, events.nanos());
        interval = 0;
        assertEquals(64 * 1024, events.maxInterval());
        events.resetMaxInterval();
        assertEquals(0, events.maxInterval(), "a capture's own from its start");
    }

    @Test
    void jdk25sEventsAreKeptSamplesAndNotPricedHere() {
        JvmEvents events = new JvmEvents(25, () -> 1_000_000, () -> 512 * 1024);
        assertEquals(0, events.events());
    }

    @Test
    void theLeastIntervalAtWhichEventsFitAnAllowance() {
        // 1.22 M events a second at 8 KiB (10 GB/s of small objects) cost 610 ms; within 10 ms: 500 KB.
        assertEquals(499_712, JvmEvents.intervalFor(8192, 610e6, 10e6));
        assertEquals(0, JvmEvents.intervalFor(8192, 0, 10e6), "no events: no least");
        assertEquals(0, JvmEvents.intervalFor(0, 610e6, 10e6), "nothing sampling: no least");
        assertEquals(Long.MAX_VALUE, JvmEvents.intervalFor(8192, 1e6, 0), "no allowance: as large as it goes");
    }
}
