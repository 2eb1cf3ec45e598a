package io.heaptap.session;

import io.heaptap.wire.options.CostBound;

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
 *
 * <p>On JDK 11-24 the JVM's own sampling events count too ({@link JvmEvents}: 500 ns each, one per 8-16 KiB
 * allocated where heaptap keeps the JVM's interval small for accuracy, thinned-away ones included). They may
 * take at most {@link #EVENT_SHARE} of the budget: the budget names the least JVM interval at which they fit
 * ({@link #minJvmInterval}), and the samples are allowed what the events measured over the span left. Above
 * 16 KiB the JVM's interval brings back the per-site bias of JDK-8356372, and the profile says how much
 * ({@link SamplerAccuracy#biasWarning}).
 */
final class SampleCostBudget {
    /** The share of the process's CPU the budget keeps to: the one constant, {@link CostBound#CPU_SHARE}. */
    static final double CPU_SHARE = CostBound.CPU_SHARE;
    /** The budget never lowers the target below this ({@link CostBound#MIN_RATE}). */
    static final int MIN_RATE = CostBound.MIN_RATE;
    /** The span each measurement covers: about a thousand samples or more. */
    static final long SPAN_NANOS = 1_000_000_000L;
    /** Fewer samples in a span do not price one (a quiet second): the last price stands. */
    static final long MIN_SAMPLES = 20;

    /**
     * The JVM's events get at most half the budget, the stack walks the rest (all of it where the events
     * need less). Half, not all: at several GB/s on JDK 17 the events alone would take the whole 1% at a
     * JVM interval of a few hundred KiB and leave the profile its minimum 1,000 samples/s; at half the
     * interval doubles (the bias grows with it, 2.6% at 64 KiB, 6% at 128 KiB) and the samples keep
     * about 1,500-3,000/s (docs/sampling.md, "The JVM's events inside the bound").
     */
    static final double EVENT_SHARE = 0.5;
    /** The JVM interval's least step: finer moves would only flip it between readings. */
    static final long JVM_INTERVAL_STEP = 4 * 1024;
    /** A least JVM interval this far below the current one lowers it: a rate near a threshold does not flip it. */
    static final double JVM_INTERVAL_LOWER = 0.75;

    /** No bound: what {@link #allowedRate} says before anything was measured. */
    static final int UNBOUNDED = Integer.MAX_VALUE;

    private final LongSupplier sampleNanos;
    private final LongSupplier processCpuNanos;
    private final JvmEvents jvmEvents;
    private long lastSamples = -1;
    private long lastEventNanos;
    private long minJvmInterval;
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
        this(sampleNanos, processCpuNanos, null);
    }

    /** @param jvmEvents the JVM's own sampling events (priced on JDK 11-24), or null for none */
    SampleCostBudget(LongSupplier sampleNanos, LongSupplier processCpuNanos, JvmEvents jvmEvents) {
        this.sampleNanos = sampleNanos;
        this.processCpuNanos = processCpuNanos;
        this.jvmEvents = jvmEvents != null && jvmEvents.priced() ? jvmEvents : null;
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
        long eventNanos = jvmEvents == null ? 0 : jvmEvents.nanos();
        if (lastSamples >= 0 && samples >= lastSamples && cpuNanos >= 0 && lastCpuNanos >= 0) {
            long elapsed = nanos - lastNanos;
            long taken = samples - lastSamples;
            if (taken >= MIN_SAMPLES) {
                nanosPerSample = Math.max(1, callbackNanos - lastSampleNanos) / (double) taken;
            }
            double budgetPerSecond = CPU_SHARE * Math.max(0, cpuNanos - lastCpuNanos) * 1e9 / elapsed;
            double eventNanosPerSecond = Math.max(0, eventNanos - lastEventNanos) * 1e9 / elapsed;
            if (!Double.isNaN(nanosPerSample)) {
                double left = Math.max(0, budgetPerSecond - eventNanosPerSecond);
                allowedRate = (int) Math.min(UNBOUNDED, Math.max(MIN_RATE, left / nanosPerSample));
            }
            if (jvmEvents != null) {
                // The interval now is the one the span's events were posted at: a least interval named at
                // the last reading was taken up right after it.
                moveMinJvmInterval(JvmEvents.intervalFor(jvmEvents.jvmInterval(), eventNanosPerSecond, EVENT_SHARE * budgetPerSecond));
            }
        }
        lastSamples = samples;
        lastSampleNanos = callbackNanos;
        lastCpuNanos = cpuNanos;
        lastNanos = nanos;
        lastEventNanos = eventNanos;
    }

    /** Raises the least JVM interval at once; lowers it only when well below (a step of {@link #JVM_INTERVAL_STEP}). */
    private void moveMinJvmInterval(long needed) {
        long stepped = needed >= Long.MAX_VALUE - JVM_INTERVAL_STEP ? Long.MAX_VALUE
                : (needed + JVM_INTERVAL_STEP - 1) / JVM_INTERVAL_STEP * JVM_INTERVAL_STEP;
        if (stepped > minJvmInterval || stepped < JVM_INTERVAL_LOWER * minJvmInterval) {
            minJvmInterval = stepped;
        }
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
        lastEventNanos = jvmEvents == null ? 0 : jvmEvents.nanos();
    }

    /**
     * The least interval the JVM may sample at for its events to cost at most {@link #EVENT_SHARE} of the
     * budget (JDK 11-24), 0 before it was measured or where the events are not priced.
     */
    long minJvmInterval() {
        return minJvmInterval;
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
