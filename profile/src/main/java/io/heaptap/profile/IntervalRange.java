package io.heaptap.profile;

/**
 * The sampling intervals a capture ran at: one, or a range when its interval followed a sample-rate
 * target (the interval rises with the allocation rate and comes back down). Every sample is weighted
 * with the interval that governed it, so estimates stay unbiased across the range; the range says
 * how fine the sampling was at its coarsest.
 *
 * @param minBytes   the smallest interval in force during the capture
 * @param maxBytes   the largest
 * @param targetRate the samples per second the interval was moved to keep near, or 0 for a fixed interval
 */
public record IntervalRange(long minBytes, long maxBytes, int targetRate) {
    public static IntervalRange fixed(long intervalBytes) {
        return new IntervalRange(intervalBytes, intervalBytes, 0);
    }

    public boolean adaptive() {
        return targetRate > 0;
    }

    /** {@code 512 KiB}, or {@code 64 KiB-4 MiB} over a range. */
    public String describe() {
        return minBytes == maxBytes ? HumanUnits.formatBytes(minBytes)
                : HumanUnits.formatBytes(minBytes) + "\u2013" + HumanUnits.formatBytes(maxBytes);
    }
}
