package io.heaptap.session;

/**
 * Keeps a capture's samples per second near a target by moving the sampling interval in powers of
 * two: a sample's cost is fixed (a stack walk), so a fixed interval makes heaptap's cost grow with
 * the application's allocation rate, and a quiet application would get few samples.
 *
 * <p>Read every 100 ms or so with the samples recorded so far. Outside [target/2, 2 x target] the
 * interval jumps at once by the power of two nearest to the measured rate over the target (a 1000x
 * storm is met within one reading, not ten), so after a move the rate lands within a factor of
 * about 1.4 of the target and noise inside the band moves nothing (hysteresis). It never goes
 * below {@link #FLOOR} (a quiet application is sampled finely; the target bounds the cost anyway)
 * nor above {@link #CEILING}. Estimates stay unbiased across a move: the native agent weights each
 * sample with the interval that governed it (samplingThinner.h).
 */
final class SampleRateGovernor {
    /** 32 KiB: finer only adds samples of quiet applications that 32 KiB already estimates well. */
    static final long FLOOR = 32 * 1024;
    /** 64 MiB: 5,000 samples/s up to about 300 GB/s; larger would leave a capture nearly empty. */
    static final long CEILING = 64L << 20;

    /**
     * 50 ms: a shorter reading is no reading. The timer runs readings at a fixed rate, so after a
     * stall (a profile built under the controller's lock, a forced GC, the process descheduled) it
     * runs the overdue ones back to back, microseconds apart; one sample in 50 us reads as 20,000/s,
     * and the interval would jump 4x for a period on nothing. The samples wait for the next reading.
     */
    static final long MIN_READING_NANOS = 50_000_000L;

    private final int target;
    private long interval;
    private long minInterval;
    private long maxInterval;
    private long lastSamples;
    private long lastNanos;

    /**
     * @param target        samples per second to keep near
     * @param startInterval the interval the capture started at
     * @param samples       samples recorded when it started
     * @param nanos         {@link System#nanoTime} when it started
     */
    SampleRateGovernor(int target, long startInterval, long samples, long nanos) {
        if (target <= 0) {
            throw new IllegalArgumentException("target must be positive");
        }
        this.target = target;
        this.interval = startInterval;
        this.minInterval = startInterval;
        this.maxInterval = startInterval;
        this.lastSamples = samples;
        this.lastNanos = nanos;
    }

    /** Whether a reading at {@code nanos} spans enough time to measure a rate ({@link #MIN_READING_NANOS}). */
    boolean due(long nanos) {
        return nanos - lastNanos >= MIN_READING_NANOS;
    }

    /** The interval to sample at from now on, given the samples recorded so far; unchanged inside the band. */
    long next(long samples, long nanos) {
        if (!due(nanos)) {
            return interval;
        }
        long elapsed = nanos - lastNanos;
        double rate = Math.max(0, samples - lastSamples) * 1e9 / elapsed;
        lastSamples = samples;
        lastNanos = nanos;
        if (rate > 2.0 * target && interval < CEILING) {
            interval = Math.min(CEILING, interval << Math.min(30, doublings(rate / target)));
        } else if (rate < target / 2.0 && interval > FLOOR) {
            int halvings = rate <= 0 ? 63 : doublings(target / rate);
            interval = Math.max(FLOOR, halvings >= 63 ? 0 : interval >> halvings);
        }
        minInterval = Math.min(minInterval, interval);
        maxInterval = Math.max(maxInterval, interval);
        return interval;
    }

    /** The power of two nearest to {@code ratio} (>= 2 here), as an exponent of at least 1. */
    private static int doublings(double ratio) {
        return (int) Math.max(1, Math.min(63, Math.round(Math.log(ratio) / Math.log(2))));
    }

    long interval() {
        return interval;
    }

    long minInterval() {
        return minInterval;
    }

    long maxInterval() {
        return maxInterval;
    }
}
