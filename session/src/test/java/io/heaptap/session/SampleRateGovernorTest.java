package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The sample-rate target's decisions on simulated time: an application whose allocation rate jumps
 * 1000x and back, read once a second (the Controller reads every 100 ms; the rates are the same). Samples per window follow from the
 * interval in force (bytes / interval), so every check here is exact arithmetic, not timing.
 */
class SampleRateGovernorTest {
    private static final int TARGET = 5_000;
    private static final long SECOND = 1_000_000_000L;

    /** One simulated capture: the windows' samples and the interval after each reading. */
    private static final class Run {
        final SampleRateGovernor governor = new SampleRateGovernor(TARGET, 512 * 1024, 0, 0);
        final List<Long> samplesPerWindow = new ArrayList<>();
        long samples;
        long nanos;

        /** A second at this allocation rate, then the governor's reading. */
        long second(double bytesPerSecond) {
            long taken = Math.round(bytesPerSecond / governor.interval());
            samples += taken;
            nanos += SECOND;
            samplesPerWindow.add(taken);
            return governor.next(samples, nanos);
        }
    }

    @Test
    void aThousandfoldStormCostsOneWindowAndTheIntervalComesBackDown() {
        Run run = new Run();
        double idle = 10e6;       // 10 MB/s
        double storm = 1000 * idle;  // 10 GB/s
        for (int i = 0; i < 5; i++) {
            run.second(idle);
        }
        assertEquals(SampleRateGovernor.FLOOR, run.governor.interval(), "a quiet application is sampled at the floor");
        int stormStart = run.samplesPerWindow.size();
        for (int i = 0; i < 10; i++) {
            run.second(storm);
        }
        // The storm's first second runs at the floor's interval; from the second on the rate is back near the target.
        for (int i = stormStart + 1; i < run.samplesPerWindow.size(); i++) {
            long n = run.samplesPerWindow.get(i);
            assertTrue(n >= TARGET / Math.sqrt(2) && n <= TARGET * Math.sqrt(2), "window " + i + ": " + n + " samples");
        }
        long stormInterval = run.governor.interval();
        assertTrue(stormInterval >= 1 << 20 && stormInterval <= 4 << 20, "interval in the storm: " + stormInterval);
        assertEquals(Long.highestOneBit(stormInterval), stormInterval, "powers of two");

        run.second(idle);
        assertEquals(SampleRateGovernor.FLOOR, run.governor.interval(), "one reading after the storm the interval is back at the floor");
        assertEquals(SampleRateGovernor.FLOOR, run.governor.minInterval());
        assertEquals(stormInterval, run.governor.maxInterval());
    }

    @Test
    void noiseInsideTheBandMovesNothing() {
        Run run = new Run();
        double steady = TARGET * 128.0 * 1024;  // the target's rate at 128 KiB
        for (int i = 0; i < 3; i++) {
            run.second(steady);
        }
        long settled = run.governor.interval();
        assertEquals(128 * 1024, settled);
        for (double factor : new double[] {1.9, 0.55, 1.5, 0.6, 1.99, 0.51}) {
            assertEquals(settled, run.second(steady * factor), "rate x" + factor + " stays inside the band");
        }
        assertEquals(2 * settled, run.second(steady * 2.2), "above twice the target the interval doubles");
    }

    @Test
    void neverBelowTheFloorNorAboveTheCeiling() {
        Run run = new Run();
        run.second(0);
        assertEquals(SampleRateGovernor.FLOOR, run.governor.interval(), "no allocation at all: the floor");
        run.second(0);
        assertEquals(SampleRateGovernor.FLOOR, run.governor.interval());
        run.second(1e15);
        assertEquals(SampleRateGovernor.CEILING, run.governor.interval(), "an absurd rate: the ceiling");
        run.second(1e15);
        assertEquals(SampleRateGovernor.CEILING, run.governor.interval());
    }

    @Test
    void aReadingWithoutTimeChangesNothing() {
        SampleRateGovernor governor = new SampleRateGovernor(TARGET, 512 * 1024, 100, 5 * SECOND);
        assertEquals(512 * 1024, governor.next(1_000_000, 5 * SECOND));
    }

    @Test
    void overdueReadingsRunBackToBackMeasureNothingUntilTheSpanIsLongEnough() {
        long ms = 1_000_000L;
        // Steady at the target: 500 samples per 100 ms at 512 KiB.
        SampleRateGovernor governor = new SampleRateGovernor(TARGET, 512 * 1024, 0, 0);
        assertEquals(512 * 1024, governor.next(500, 100 * ms));
        // A 400 ms stall, then the timer's overdue readings 20 us apart, one sample between two of them:
        // read alone, that is 50,000 samples/s and a 8x jump of the interval.
        assertEquals(512 * 1024, governor.next(2_500, 500 * ms));
        assertTrue(!governor.due(500 * ms + 20_000), "the session skips the whole reading, the allocation rate's too");
        assertEquals(512 * 1024, governor.next(2_501, 500 * ms + 20_000), "20 us: no reading");
        assertEquals(512 * 1024, governor.next(2_501, 500 * ms + 40_000));
        assertEquals(512 * 1024, governor.maxInterval(), "the report's range holds no jump either");
        // The samples wait for the next reading long enough to measure a rate, which counts them all.
        assertTrue(governor.due(600 * ms));
        assertEquals(512 * 1024, governor.next(3_000, 600 * ms));
        assertEquals(1024 * 1024, governor.next(3_000 + 1_100, 700 * ms), "11,000 samples/s over 100 ms: twice the interval");
    }
}
