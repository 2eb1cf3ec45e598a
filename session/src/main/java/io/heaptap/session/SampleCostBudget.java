package io.heaptap.session;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Bounds what heaptap's sampling costs the application, not only how often it samples. A kept sample
 * costs its allocating thread one HotSpot stack walk, about 0.5 us plus 150 ns a frame (JDK 17 and 25)
 * when samples come often: 1.5-3 us on a shallow stack, 9-12 us at the 64-frame default on a deep one.
 * So 5,000 samples a second cost a two-core service anywhere from about 1% of its CPU (3 frames) to
 * 4.5% (60 compiled frames; perf, JDK 25), and a sample-rate target alone cannot promise the first.
 *
 * <p>Read with the sample-rate target's readings. Over each second at a steady rate it measures what a kept
 * sample cost
 * (the native callback's own clock) and the process's CPU time, and allows as many samples a second
 * as cost at most {@link #CPU_SHARE} of that CPU, but never fewer than {@link #MIN_RATE}: a rarer
 * sample costs more (it finds HotSpot's stack walker out of the caches the application filled
 * meanwhile: 4.4 us at 6,000 samples/s, 18 us at 400/s for the same 10-frame stack, JDK 25), so
 * below about 1,000/s the cost hardly falls while the profile's accuracy does. Unknown figures (no
 * process CPU, too few samples to price one) bound nothing.
 */
final class SampleCostBudget {
    /**
     * 1% of the process's CPU, by the sample callback's own clock: a wall clock, which on a busy two-core
     * machine read 1.3-1.7 times the CPU time perf attributed to the callback (threads switched out
     * mid-sample), so it errs on the cheap side. heaptap attaches to production services, whose users judge
     * it by what it takes from their latency: at 1% the bench's busy one-thread target keeps about 2,500
     * samples a second, 75,000 in the default 30 s capture, which its 5% per-site accuracy needs; a quick
     * 10 s capture that needs more asks for a rate and is told what it cost. The one number to change for
     * another bound.
     */
    static final double CPU_SHARE = 0.01;
    /** The budget never lowers the target below this: 10,000 samples in a 10 s capture. */
    static final int MIN_RATE = 1_000;
    /** The span each measurement covers: about a thousand samples or more. */
    static final long SPAN_NANOS = 1_000_000_000L;
    /** Fewer samples in a span do not price one (a quiet second): the last price stands. */
    static final long MIN_SAMPLES = 20;

    /** {@link #CPU_SHARE} for people: {@code 1.0%}. */
    static String describeShare() {
        return String.format(Locale.ROOT, "%.2g%%", CPU_SHARE * 100);
    }

    /** No bound: what {@link #allowedRate} says before anything was measured. */
    static final int UNBOUNDED = Integer.MAX_VALUE;

    private final LongSupplier sampleNanos;
    private final LongSupplier processCpuNanos;
    private long lastSamples = -1;
    private long lastSampleNanos;
    private long lastCpuNanos;
    private long lastNanos;
    private double nanosPerSample = Double.NaN;
    private int allowedRate = UNBOUNDED;

    /**
     * @param sampleNanos     the sample callback's nanoseconds so far ({@code Sampler.sampleNanos})
     * @param processCpuNanos the process's CPU nanoseconds so far, negative when unknown
     */
    SampleCostBudget(LongSupplier sampleNanos, LongSupplier processCpuNanos) {
        this.sampleNanos = sampleNanos;
        this.processCpuNanos = processCpuNanos;
    }

    /**
     * One reading of the sample-rate target: the sampler's samples so far and {@link System#nanoTime}.
     * Every {@link #SPAN_NANOS} the allowed rate is measured again; only then are the clocks read (the
     * process's CPU is a read of /proc).
     */
    void read(long samples, long nanos) {
        if (lastSamples >= 0 && samples >= lastSamples && nanos - lastNanos < SPAN_NANOS) {
            return;
        }
        long callbackNanos = sampleNanos.getAsLong();
        long cpuNanos = processCpuNanos.getAsLong();
        if (lastSamples >= 0 && samples >= lastSamples && cpuNanos >= 0 && lastCpuNanos >= 0) {
            long elapsed = nanos - lastNanos;
            long taken = samples - lastSamples;
            if (taken >= MIN_SAMPLES) {
                nanosPerSample = Math.max(1, callbackNanos - lastSampleNanos) / (double) taken;
            }
            if (!Double.isNaN(nanosPerSample)) {
                double cpuPerSecond = Math.max(0, cpuNanos - lastCpuNanos) * 1e9 / elapsed;
                allowedRate = (int) Math.min(UNBOUNDED, Math.max(MIN_RATE, CPU_SHARE * cpuPerSecond / nanosPerSample));
            }
        }
        lastSamples = samples;
        lastSampleNanos = callbackNanos;
        lastCpuNanos = cpuNanos;
        lastNanos = nanos;
    }

    /**
     * A reading at which the rate jumped (the sample-rate target moves the interval at once): the span
     * begins again here, unpriced. The samples before it came in a burst (a storm met at the old interval,
     * thousands in 100 ms, or a capture's start at 512 KiB), and a burst's samples cost more than steady
     * ones (new stacks resolved, tables grown, the two threads' store contended): priced from one, a
     * storm on a shallow stack was held to the minimum rate, its interval 4x what its cost called for.
     */
    void restart(long samples, long nanos) {
        lastSamples = samples;
        lastSampleNanos = sampleNanos.getAsLong();
        lastCpuNanos = processCpuNanos.getAsLong();
        lastNanos = nanos;
    }

    /** Samples a second the budget allows, at least {@link #MIN_RATE}; {@link #UNBOUNDED} until measured. */
    int allowedRate() {
        return allowedRate;
    }

    /** What a kept sample cost over the last measured second, in nanoseconds; NaN until measured. */
    double nanosPerSample() {
        return nanosPerSample;
    }
}
