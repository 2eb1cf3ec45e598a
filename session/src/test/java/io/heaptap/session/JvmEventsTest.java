package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The JVM's own sampling events, counted from the bytes allocated and the interval that held over them. */
class JvmEventsTest {
    private long bytes;
    private long interval;

    @Test
    void eachSpanOfBytesIsChargedToTheIntervalThatHeldOverIt() {
        JvmEvents events = new JvmEvents(17, () -> bytes, () -> interval);
        assertEquals(0, events.events(), "nothing sampled yet");
        interval = 8 * 1024;
        events.events();  // sampling starts at 8 KiB
        bytes += 80L << 20;
        assertEquals(10 * 1024, events.events(), "80 MiB at 8 KiB");
        interval = 64 * 1024;
        events.events();  // the interval moves
        bytes += 64L << 20;
        assertEquals(11 * 1024, events.events(), "64 MiB more at 64 KiB: 1,024 more");
        assertEquals(11 * 1024 * JvmEvents.NANOS_PER_EVENT, events.nanos());
        interval = 0;
        events.events();  // sampling stops
        bytes += 1L << 30;
        assertEquals(11 * 1024, events.events(), "no events while nothing samples");
        assertEquals(64 * 1024, events.maxInterval());
    }

    @Test
    void jdk25sEventsAreKeptSamplesAndNotPricedHere() {
        JvmEvents events = new JvmEvents(25, () -> bytes, () -> 512 * 1024);
        events.events();
        bytes += 1L << 30;
        assertEquals(0, events.events());
    }

    @Test
    void anUnknownAllocationCountChargesNothing() {
        JvmEvents events = new JvmEvents(17, () -> -1, () -> 8 * 1024);
        events.events();
        assertEquals(0, events.events());
    }

    @Test
    void theLeastIntervalAtWhichEventsFitAnAllowance() {
        // 10 GB/s at 500 ns an event within 10 ms a second: 20,000 events a second, one per 500 KB.
        assertEquals(500_000, JvmEvents.intervalFor(10e9, 10e6));
        assertEquals(0, JvmEvents.intervalFor(0, 10e6), "nothing allocated: no least");
        assertEquals(Long.MAX_VALUE, JvmEvents.intervalFor(1e9, 0), "no allowance: as large as it goes");
    }
}
