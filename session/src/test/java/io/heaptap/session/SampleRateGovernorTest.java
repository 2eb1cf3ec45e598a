package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The sample-rate target's decisions on simulated time: an application whose allocation rate jumps
 * 1000x and back, drifts, or wobbles from one reading to the next, read every 100 ms as the Controller
 * does (or once a second). Samples per reading follow from the interval in force (bytes / interval), so
 * every check here is exact arithmetic, not timing.
 */
class SampleRateGovernorTest {
    private static final int TARGET = 5_000;
    private static final long SECOND = 1_000_000_000L;
    private static final long READING = 100_000_000L;

    /** One simulated capture: the readings' samples and the interval after each reading. */
    private static final class Run {
        final SampleRateGovernor governor = new SampleRateGovernor(TARGET, 512 * 1024, 0, 0);
        final List<Long> samplesPerReading = new ArrayList<>();
        long samples;
        long nanos;

        /** {@code span} nanoseconds at this allocation rate, then the governor's reading. */
        long reading(double bytesPerSecond, long span) {
            long taken = Math.round(bytesPerSecond * span / 1e9 / governor.interval());
            samples += taken;
            nanos += span;
            samplesPerReading.add(taken);
            return governor.next(samples, nanos);
        }

        long readings(double bytesPerSecond, int n) {
            for (int i = 0; i < n; i++) {
                reading(bytesPerSecond, READING);
            }
            return governor.interval();
        }
    }

    @Test
    void aThousandfoldStormCostsOneReadingAndTheIntervalComesBackDown() {
        Run run = new Run();
        double idle = 10e6;       // 10 MB/s
        double storm = 1000 * idle;  // 10 GB/s
        assertEquals(SampleRateGovernor.FLOOR, run.readings(idle, 10), "a quiet application is sampled at the floor");
        int stormStart = run.samplesPerReading.size();
        run.readings(storm, 20);
        // The storm's first reading runs at the floor's interval; from the next on the rate is on the target.
        for (int i = stormStart + 1; i < run.samplesPerReading.size(); i++) {
            assertEquals(TARGET / 10, run.samplesPerReading.get(i), 1, "reading " + i);
        }
        long stormInterval = run.governor.interval();
        assertEquals(storm / TARGET, stormInterval, storm / TARGET / 1000, "the interval in the storm: the rate over the target");

        run.reading(idle, READING);
        assertEquals(SampleRateGovernor.FLOOR, run.governor.interval(), "one reading after the storm the interval is back at the floor");
        assertEquals(SampleRateGovernor.FLOOR, run.governor.minInterval());
        assertEquals(stormInterval, run.governor.maxInterval());
    }

    @Test
    void aReadingsNoiseMovesNothingButASecondsDriftIsTrimmedBackToTheTarget() {
        Run run = new Run();
        double steady = TARGET * 128.0 * 1024;  // the target's rate at 128 KiB
        run.readings(steady, 3);
        assertEquals(128 * 1024, run.governor.interval(), "the first reading lands on the target");
        for (int i = 0; i < 30; i++) {
            double factor = i % 2 == 0 ? 1.45 : 0.55;  // every reading inside [target/2, 2 x target], each second's mean on it
            assertEquals(128 * 1024, run.reading(steady * factor, READING), "reading " + i + ": rate x" + factor);
        }
        assertEquals(128 * 1024, run.readings(steady * 1.08, 30), "a drift inside [target/1.1, 1.1 x target] moves nothing");
        int readings = 0;
        while (run.governor.interval() == 128 * 1024 && readings < 30) {
            run.reading(steady * 1.5, READING);
            readings++;
        }
        // The second being measured when the drift began holds some of the old rate: it may not trim, the next one does.
        assertTrue(readings <= 20, "a lasting drift of 30% is trimmed within two seconds: " + readings + " readings");
        run.readings(steady * 1.5, 20);
        long last = run.samplesPerReading.get(run.samplesPerReading.size() - 1);
        assertTrue(last >= TARGET / 10 / SampleRateGovernor.TRIM_FACTOR && last <= TARGET / 10 * SampleRateGovernor.TRIM_FACTOR,
                "back near the target: " + last + " samples in 100 ms");
    }

    @Test
    void aFastStormIsMetAtOnceFromAnyInterval() {
        Run run = new Run();
        run.readings(10e9, 2);
        long before = run.governor.interval();
        assertEquals(3.0 * before, run.readings(3 * 10e9, 1), before / 1000.0, "3x the rate: the next reading triples the interval");
    }

    @Test
    void neverBelowTheFloorNorAboveTheCeiling() {
        Run run = new Run();
        run.reading(0, SECOND);
        assertEquals(SampleRateGovernor.FLOOR, run.governor.interval(), "no allocation at all: the floor");
        run.reading(0, SECOND);
        assertEquals(SampleRateGovernor.FLOOR, run.governor.interval());
        run.reading(1e15, SECOND);
        assertEquals(SampleRateGovernor.CEILING, run.governor.interval(), "an absurd rate: the ceiling");
        run.reading(1e15, SECOND);
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
        assertEquals(Math.round(512 * 1024 * 2.2), governor.next(3_000 + 1_100, 700 * ms), "11,000 samples/s over 100 ms: 2.2 times the interval");
    }
}
