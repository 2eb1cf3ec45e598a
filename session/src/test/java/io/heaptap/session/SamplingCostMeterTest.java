package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.heaptap.profile.SamplingCost;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** A capture's sampling cost: the clocks' differences from its start, growing while it records, frozen at its end. */
class SamplingCostMeterTest {
    @Test
    void theCostIsMeasuredFromTheStartAndFrozenAtTheEnd() {
        AtomicLong callback = new AtomicLong(5_000_000);  // an earlier capture's samples: not this one's
        AtomicLong cpu = new AtomicLong(40_000_000_000L);
        SamplingCostMeter meter = new SamplingCostMeter(callback::get, cpu::get);
        meter.start(0.02);
        callback.addAndGet(3_000_000);
        cpu.addAndGet(2_000_000_000L);
        assertEquals(new SamplingCost(600, 3_000_000, 2_000_000_000L, 0.02), meter.cost(600), "so far");
        meter.stop(700);
        callback.addAndGet(9_000_000);  // continuous sampling after a window, or a later capture's start
        cpu.addAndGet(9_000_000_000L);
        assertEquals(new SamplingCost(700, 3_000_000, 2_000_000_000L, 0.02), meter.cost(900), "frozen at the end");
        assertEquals(0.0015, meter.cost(0).share(), 1e-12);

        meter.start(0);
        cpu.set(-1);
        assertEquals(-1, meter.cost(1).processCpuNanos(), "a process CPU time that became unknown is unknown");
    }
}
