package io.heaptap.session;

import io.heaptap.profile.SamplingCost;

import java.util.function.LongSupplier;

/**
 * Measures what a capture's sampling costs ({@link SamplingCost}): the native callback's time and the
 * process's CPU time from the capture's start to its end, or to now while it records. Two reads of each
 * clock a capture, and one more per status or dump.
 */
final class SamplingCostMeter {
    private final LongSupplier callbackNanos;
    private final LongSupplier processCpuNanos;
    private long callbackAtStart;
    private long cpuAtStart = -1;
    private double budgetShare;
    /** The cost at the end, frozen there; null while recording. */
    private SamplingCost atEnd;

    /**
     * @param callbackNanos   the sample callback's nanoseconds so far ({@code Sampler.sampleNanos})
     * @param processCpuNanos the process's CPU nanoseconds so far, negative when unknown
     */
    SamplingCostMeter(LongSupplier callbackNanos, LongSupplier processCpuNanos) {
        this.callbackNanos = callbackNanos;
        this.processCpuNanos = processCpuNanos;
    }

    /** A capture starts: {@code budgetShare} is the share of the CPU its callback is kept under, 0 for none. */
    void start(double budgetShare) {
        this.budgetShare = budgetShare;
        callbackAtStart = callbackNanos.getAsLong();
        cpuAtStart = processCpuNanos.getAsLong();
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
        return new SamplingCost(samples, Math.max(0, callbackNanos.getAsLong() - callbackAtStart),
                cpu < 0 || cpuAtStart < 0 ? -1 : Math.max(0, cpu - cpuAtStart), budgetShare);
    }
}
