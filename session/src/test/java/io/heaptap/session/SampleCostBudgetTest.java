package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The sample cost budget on simulated clocks: a sampler whose kept samples cost a known time and a
 * process that burns a known CPU time a second, read every 100 ms as the sample-rate target reads it.
 */
class SampleCostBudgetTest {
    private static final long READING = 100_000_000L;

    /** Simulated clocks: the callback's nanoseconds, the process's CPU, how often each was read. */
    private static final class Clocks {
        long sampleNanos;
        long cpuNanos;
        int reads;
        final SampleCostBudget budget = new SampleCostBudget(() -> {
            reads++;
            return sampleNanos;
        }, () -> cpuNanos);
        long samples;
        long nanos;

        /** One second at this sample rate, each sample costing {@code cost} ns, the process using {@code cores}. */
        void second(int rate, double cost, double cores) {
            for (int i = 0; i < 10; i++) {
                samples += rate / 10;
                sampleNanos += Math.round(rate / 10 * cost);
                cpuNanos = cpuNanos < 0 ? cpuNanos : cpuNanos + Math.round(cores * READING);
                nanos += READING;
                budget.read(samples, nanos);
            }
        }
    }

    @Test
    void expensiveSamplesAreAllowedTheirShareOfTheProcessCpu() {
        Clocks c = new Clocks();
        c.budget.read(0, 0);
        assertEquals(SampleCostBudget.UNBOUNDED, c.budget.allowedRate(), "nothing is bounded before it was measured");
        // Two busy cores, deep stacks: 12 us a sample. 1% of 2 s of CPU a second is 20 ms: 1,666 samples.
        c.second(5_000, 12_000, 2.0);
        assertEquals(1_666, c.budget.allowedRate(), 1);
        assertEquals(12_000, c.budget.nanosPerSample(), 1);
        // Shallow stacks on the same process: 2.5 us a sample allows 8,000 a second (the target caps it, not the budget).
        c.second(1_666, 2_500, 2.0);
        c.second(1_666, 2_500, 2.0);
        assertEquals(8_000, c.budget.allowedRate(), 1);
    }

    @Test
    void theBudgetNeverGoesBelowTheMinimumRate() {
        Clocks c = new Clocks();
        c.budget.read(0, 0);
        // A nearly idle process (2% of a core) whose samples cost 30 us: 6 samples a second would fit its budget.
        c.second(2_000, 30_000, 0.02);
        assertEquals(SampleCostBudget.MIN_RATE, c.budget.allowedRate(),
                "below about 1,000/s a sample costs more (cold caches) and the profile's accuracy falls faster than its cost");
    }

    @Test
    void unknownFiguresBoundNothingAndAQuietSecondKeepsTheLastPrice() {
        Clocks unknownCpu = new Clocks();
        unknownCpu.cpuNanos = -1;
        unknownCpu.budget.read(0, 0);
        unknownCpu.second(5_000, 12_000, 2.0);
        assertEquals(SampleCostBudget.UNBOUNDED, unknownCpu.budget.allowedRate(), "no process CPU: no share of it");

        Clocks c = new Clocks();
        c.budget.read(0, 0);
        c.second(5_000, 12_000, 2.0);
        c.second(5_000, 12_000, 2.0);
        for (int quiet = 0; quiet < 3; quiet++) {
            c.second(10, 1_000, 2.0);  // 10 samples a second: too few to price one at 1 us
        }
        assertEquals(12_000, c.budget.nanosPerSample(), 6, "the last price stands (its span held 0.1 s of the quiet seconds)");
        assertEquals(1_666, c.budget.allowedRate(), 2);
    }

    @Test
    void theClocksAreReadOnceASecondNotAtEveryReading() {
        Clocks c = new Clocks();
        c.budget.read(0, 0);
        for (int i = 0; i < 5; i++) {
            c.second(5_000, 3_000, 2.0);
        }
        assertEquals(6, c.reads, "once to begin, then once per second: reading /proc ten times a second cost 0.25% of a target");
    }

    @Test
    void theRateTargetLandsOnWhatTheBudgetAllows() {
        Clocks c = new Clocks();
        SampleRateGovernor governor = new SampleRateGovernor(5_000, c.budget, 512 * 1024, 0, 0);
        double bytesPerSecond = 10e9;
        for (int reading = 0; reading < 100; reading++) {
            long taken = Math.round(bytesPerSecond / 10 / governor.interval());
            c.samples += taken;
            c.sampleNanos += taken * 12_000;  // deep stacks: 12 us a sample
            c.cpuNanos += 2 * READING;        // two busy cores
            c.nanos += READING;
            governor.next(c.samples, c.nanos);
        }
        assertEquals(1_666, governor.target(), 1, "1% of two cores at 12 us a sample");
        double rate = bytesPerSecond / governor.interval();
        assertTrue(rate > 1_666 / SampleRateGovernor.TRIM_FACTOR && rate < 1_666 * SampleRateGovernor.TRIM_FACTOR,
                "the rate settled on the budget's: " + rate);

        SampleRateGovernor unbounded = new SampleRateGovernor(5_000, 512 * 1024, 0, 0);
        assertEquals(5_000, unbounded.target(), "an asked-for rate is kept whatever it costs");
    }

    /**
     * A storm met at the quiet interval takes thousands of samples in one reading, and they cost more than
     * steady ones (new stacks, grown tables, contention): 30 us here against 3 us once steady. Priced from
     * that burst, the storm would be held to the minimum rate; the burst's reading restarts the span, and the
     * steady samples after it, at 3 us, fit the budget at the full target.
     */
    @Test
    void aBurstAtAJumpIsNotPriced() {
        Clocks c = new Clocks();
        SampleRateGovernor governor = new SampleRateGovernor(5_000, c.budget, 512 * 1024, 0, 0);
        boolean burst = true;
        for (int reading = 0; reading < 60; reading++) {
            double bytesPerSecond = reading < 20 ? 10e6 : 10e9;  // 2 s quiet, then the storm
            long taken = Math.round(bytesPerSecond / 10 / governor.interval());
            boolean first = reading == 20;
            c.samples += taken;
            c.sampleNanos += taken * (first ? 30_000 : 3_000);
            c.cpuNanos += 2 * READING;
            c.nanos += READING;
            governor.next(c.samples, c.nanos);
            burst &= !first || taken > 1_000;
        }
        assertTrue(burst, "the storm's first reading was a burst at the quiet interval");
        assertEquals(10e9 / 5_000, governor.maxInterval(), 10e9 / 5_000 / 100,
                "never held below 5,000/s: 3 us a sample, 1% of two cores allows 6,666/s (priced with the burst: 1,000/s)");
        assertEquals(5_000, governor.target());
        assertEquals(3_000, c.budget.nanosPerSample(), 1, "priced from the steady samples alone");
    }

    /**
     * JDK 17 at 10 GB/s on two busy cores: at 8 KiB the JVM's own events (500 ns each) would cost 610 ms a
     * second, thirty times the whole 1% (20 ms). The budget names the least JVM interval at which they take
     * half of it (500 KB), and once they run there the samples get the half they leave.
     */
    @Test
    void onJdk17TheJvmsEventsAreInsideTheBound() {
        long[] counted = {0};
        long[] jvmInterval = {8 * 1024};
        JvmEvents events = new JvmEvents(17, () -> counted[0], () -> jvmInterval[0]);
        long[] callback = {0};
        long[] cpu = {0};
        SampleCostBudget budget = new SampleCostBudget(() -> callback[0], () -> cpu[0], events);
        long samples = 0;
        long nanos = 0;
        budget.read(samples, nanos);
        events.events();
        for (int second = 0; second < 4; second++) {
            for (int reading = 0; reading < 10; reading++) {
                long minJvm = budget.minJvmInterval();
                jvmInterval[0] = Math.max(8 * 1024, minJvm);  // the agent takes the least the budget names
                counted[0] += 1_000_000_000L / jvmInterval[0];  // small objects: an event per interval of bytes
                samples += 500;
                callback[0] += 500 * 3_000L;  // 3 us a sample
                cpu[0] += 2 * READING;
                nanos += READING;
                budget.read(samples, nanos);
                events.events();
            }
        }
        assertEquals(503_808, budget.minJvmInterval(), "10e9 B/s x 500 ns / 10 ms = 500 KB, up to a 4 KiB step");
        // At 503,808 B: 19,849 events a second, 9.92 ms; 10.08 ms left for 3 us samples.
        assertEquals(3_358, budget.allowedRate(), 5);

        SampleCostBudget withoutEvents = new SampleCostBudget(() -> callback[0], () -> cpu[0]);
        assertEquals(0, withoutEvents.minJvmInterval(), "no events priced: no least JVM interval");
    }

    @Test
    void theLeastJvmIntervalFallsOnlyWhenWellBelow() {
        long[] counted = {0};
        JvmEvents events = new JvmEvents(17, () -> counted[0], () -> 8 * 1024);
        long[] cpu = {0};
        SampleCostBudget budget = new SampleCostBudget(() -> 0, () -> cpu[0], events);
        long nanos = 0;
        budget.read(0, nanos);
        long[] rates = {4_000_000_000L, 3_400_000_000L, 2_000_000_000L};
        long[] expected = {200_704, 200_704, 102_400};
        for (int i = 0; i < rates.length; i++) {
            counted[0] += rates[i] / (8 * 1024);
            cpu[0] += 2_000_000_000L;
            nanos += 1_000_000_000L;
            budget.read(0, nanos);
            assertEquals(expected[i], budget.minJvmInterval(), 4096, "at " + rates[i] + " B/s");
        }
    }

    /**
     * Large arrays, one event each however large: at 2 GB/s of 1 MiB arrays the JVM posts 2,000 events a
     * second at any interval under 1 MiB, 1 ms of the 10 ms allowance. Counted, they need no larger JVM
     * interval; estimated from the bytes (a quarter of a million events at 8 KiB) they asked for 100 KB,
     * and the profile then stated that interval's per-site bias for nothing.
     */
    @Test
    void largeArraysAreChargedTheEventsTheyPostNotTheirBytes() {
        long[] counted = {0};
        JvmEvents events = new JvmEvents(17, () -> counted[0], () -> 8 * 1024);
        long[] cpu = {0};
        SampleCostBudget budget = new SampleCostBudget(() -> 0, () -> cpu[0], events);
        long nanos = 0;
        budget.read(0, nanos);
        for (int second = 0; second < 3; second++) {
            counted[0] += 2_000;
            cpu[0] += 2_000_000_000L;
            nanos += 1_000_000_000L;
            budget.read(0, nanos);
        }
        assertEquals(4096, budget.minJvmInterval(), "8 KiB x 1 ms / 10 ms, one step: no larger interval needed");
    }
}
