package io.heaptap.session;

import io.heaptap.profile.SamplingCost;

import java.util.function.LongSupplier;

/**
 * Measures what a capture's sampling costs ({@link SamplingCost}): the native callback's time, the JVM's
 * own sampling events (JDK 11-24) and the process's CPU time from the capture's start to its end, or to now while it records. Two reads of each
 * clock a capture, and one more per status or dump.
 */
final class SamplingCostMeter {
    private final LongSupplier callbackNanos;
    private final LongSupplier processCpuNanos;
    private final LongSupplier jvmEvents;
    private long callbackAtStart;
    private long eventsAtStart;
    private long cpuAtStart = -1;
    private double budgetShare;
    /** The cost at the end, frozen there; null while recording. */
    private SamplingCost atEnd;

    /**
     * @param callbackNanos   the sample callback's nanoseconds so far ({@code Sampler.sampleNanos})
     * @param processCpuNanos the process's CPU nanoseconds so far, negative when unknown
     */
    SamplingCostMeter(LongSupplier callbackNanos, LongSupplier processCpuNanos) {
        this(callbackNanos, processCpuNanos, () -> 0);
    }

    /** @param jvmEvents the JVM's own sampling events so far, priced on JDK 11-24 ({@link JvmEvents#events}), 0 elsewhere */
    SamplingCostMeter(LongSupplier callbackNanos, LongSupplier processCpuNanos, LongSupplier jvmEvents) {
        this.callbackNanos = callbackNanos;
        this.processCpuNanos = processCpuNanos;
        this.jvmEvents = jvmEvents;
    }

    /** A capture starts: {@code budgetShare} is the share of the CPU its callback is kept under, 0 for none. */
    void start(double budgetShare) {
        this.budgetShare = budgetShare;
        callbackAtStart = callbackNanos.getAsLong();
        cpuAtStart = processCpuNanos.getAsLong();
        eventsAtStart = jvmEvents.getAsLong();
        atEnd = null;
    }

    /** The capture ended with {@code samples} kept: its cost no longer grows. */
    void stop(long samples) {
        atEnd = measure(samples);
    }

    /** The cost so far (or at the end), given the capture's kept samples. */
    SamplingCost cost(long samples) {
        return atEnd != null ? atEnd : measure(samples);
    }

    private SamplingCost measure(long samples) {
        long cpu = processCpuNanos.getAsLong();
        long events = Math.max(0, jvmEvents.getAsLong() - eventsAtStart);
        return new SamplingCost(samples, Math.max(0, callbackNanos.getAsLong() - callbackAtStart),
                cpu < 0 || cpuAtStart < 0 ? -1 : Math.max(0, cpu - cpuAtStart), budgetShare, events, events * JvmEvents.NANOS_PER_EVENT);
    }
}
