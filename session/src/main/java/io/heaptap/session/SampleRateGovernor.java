package io.heaptap.session;

/**
 * Keeps a capture's samples per second near a target by moving the sampling interval: a sample's cost
 * is fixed (a stack walk), so a fixed interval makes heaptap's cost grow with the application's
 * allocation rate, and a quiet application would get few samples.
 *
 * <p>Read every 100 ms or so with the samples recorded so far. Two rules, both moving the interval in
 * proportion to the measured rate over the target, so the rate lands on the target, not near it:
 * <ul>
 * <li><b>A jump</b>: a reading outside [target/2, 2 x target] moves the interval at once (a 1000x
 * storm is met within one reading, not ten);</li>
 * <li><b>a trim</b>: inside that band, the rate over the last second or more (about 5,000 samples at the
 * default, a noise of 1.4%) is brought back when it left [target/1.1, 1.1 x target]. A single
 * reading's 500 samples (4.5% noise) would move the interval on nothing; a second's noise is a
 * seventh of the trim band, so only a real change of the allocation rate moves it (a wider band, 1.2,
 * left the bench's target at 5,800 samples/s: 16% more stack walks than asked for).</li>
 * </ul>
 * Steps of powers of two would let the rate sit anywhere in [target/2, 2 x target]: a
 * 15.7 GB/s target kept 7,800 samples a second at the 5,000 default, and each one costs a stack walk
 * (about 4.5 us there, JDK 25); a quiet one could get 2,600, short of what a 10 s capture's accuracy
 * needs. The interval never goes below {@link #FLOOR} (a quiet application is sampled finely; the
 * target bounds the cost anyway) nor above {@link #CEILING}. Estimates stay unbiased across a move: the
 * native agent weights each sample with the interval that governed it (samplingThinner.h).
 *
 * <p>With a {@link SampleCostBudget} (the default sampling) the target is the lower of the rate asked
 * for and the rate the budget allows: where stacks are deep, a sample costs several times what it costs
 * on a shallow one, and the interval rises until the samples cost what the budget allows.
 */
final class SampleRateGovernor {
    /** 32 KiB: finer only adds samples of quiet applications that 32 KiB already estimates well. */
    static final long FLOOR = 32 * 1024;
    /** 64 MiB: 5,000 samples/s up to about 300 GB/s; larger would leave a capture nearly empty. */
    static final long CEILING = 64L << 20;
    /** A reading this far from the target (either way) moves the interval at once. */
    static final double JUMP_FACTOR = 2.0;
    /** A second's rate this far from the target (either way) moves the interval. */
    static final double TRIM_FACTOR = 1.1;
    /** The span a trim measures over: about 5,000 samples at the default target. */
    static final long TRIM_SPAN_NANOS = 1_000_000_000L;

    /**
     * 50 ms: a shorter reading is no reading. The timer runs readings at a fixed rate, so after a
     * stall (a profile built under the controller's lock, a forced GC, the process descheduled) it
     * runs the overdue ones back to back, microseconds apart; one sample in 50 us reads as 20,000/s,
     * and the interval would jump 4x for a period on nothing. The samples wait for the next reading.
     */
    static final long MIN_READING_NANOS = 50_000_000L;

    private final int target;
    /** Lowers the target where samples are expensive; null: the target is kept whatever it costs. */
    private final SampleCostBudget costBudget;
    private long interval;
    private long minInterval;
    private long maxInterval;
    private long lastSamples;
    private long lastNanos;
    /** Samples and time since the interval last moved or was found on target: what a trim measures. */
    private long spanSamples;
    private long spanNanos;

    /**
     * @param target        samples per second to keep near
     * @param startInterval the interval the capture started at
     * @param samples       samples recorded when it started
     * @param nanos         {@link System#nanoTime} when it started
     */
    SampleRateGovernor(int target, long startInterval, long samples, long nanos) {
        this(target, null, startInterval, samples, nanos);
    }

    /** @param costBudget lowers the target where samples are expensive, read at each reading; null for none */
    SampleRateGovernor(int target, SampleCostBudget costBudget, long startInterval, long samples, long nanos) {
        if (target <= 0) {
            throw new IllegalArgumentException("target must be positive");
        }
        this.target = target;
        this.costBudget = costBudget;
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

    /** The interval to sample at from now on, given the samples recorded so far; unchanged on target. */
    long next(long samples, long nanos) {
        if (!due(nanos)) {
            return interval;
        }
        long taken = Math.max(0, samples - lastSamples);
        long elapsed = nanos - lastNanos;
        lastSamples = samples;
        lastNanos = nanos;
        spanSamples += taken;
        spanNanos += elapsed;
        double rate = taken * 1e9 / elapsed;
        int aim = target();
        boolean jump = rate > JUMP_FACTOR * aim || rate < aim / JUMP_FACTOR;
        if (costBudget != null) {
            if (jump) {
                costBudget.restart(samples, nanos);  // a burst is no price
            } else {
                costBudget.read(samples, nanos);
                aim = target();
            }
        }
        if (jump) {
            moveFor(rate, aim);
        } else if (spanNanos >= TRIM_SPAN_NANOS) {
            double spanRate = spanSamples * 1e9 / spanNanos;
            if (spanRate > TRIM_FACTOR * aim || spanRate < aim / TRIM_FACTOR) {
                moveFor(spanRate, aim);
            } else {
                startSpan();
            }
        }
        return interval;
    }

    /**
     * The least interval the JVM may sample at for its own events to fit the cost budget (JDK 11-24), 0 for
     * no least: without a budget (a rate asked for), or before it was measured.
     */
    long minJvmInterval() {
        return costBudget == null ? 0 : costBudget.minJvmInterval();
    }

    /** Samples a second to keep near now: the rate asked for, or less where the cost budget allows less. */
    int target() {
        return costBudget == null ? target : Math.min(target, costBudget.allowedRate());
    }

    /** Moves the interval so that {@code rate}, measured at the current one, would have been {@code aim}. */
    private void moveFor(double rate, int aim) {
        double wanted = interval * (rate / aim);
        interval = wanted >= CEILING ? CEILING : Math.max(FLOOR, Math.round(wanted));
        minInterval = Math.min(minInterval, interval);
        maxInterval = Math.max(maxInterval, interval);
        startSpan();
    }

    private void startSpan() {
        spanSamples = 0;
        spanNanos = 0;
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
