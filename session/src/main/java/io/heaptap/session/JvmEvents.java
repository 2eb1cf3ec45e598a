package io.heaptap.session;

import java.util.function.LongSupplier;

/**
 * The JVM's own heap-sampling events on JDK 11-24, and what they cost. heaptap keeps the JVM's interval
 * small there (8-16 KiB, JvmSamplingInterval) and thins in the agent, and every event costs the allocating
 * thread even when it is thinned away: the allocation leaves the TLAB's fast path at each sample point, the
 * JVM posts a JVMTI event, the callback draws its coin. Measured on JDK 17 (bench JvmEventPrice, one
 * thread and two, three allocation mixes, sampling off and on alternating): 500-530 ns an event on the
 * steady mixes, 15-25% of an allocating thread at 8-16 KiB and several GB/s, more than heaptap's stack walks.
 *
 * <p>Counted by the agent: every event passes its callback's first test, thinned away or kept, so the
 * agent counts them there (the JVM posts one per interval of bytes a thread allocates, but an object
 * larger than the interval takes one event, not several: on a mix of large arrays an estimate from the
 * bytes counted several times too many, and raised the JVM's interval, and the stated bias, for
 * nothing). On JDK 25 nothing is thinned (an event is a kept sample) and the JVM's part of it is not
 * priced.
 */
final class JvmEvents {
    /** What one event costs its thread on JDK 17, in nanoseconds (bench JvmEventPrice, a loaded two-core machine). */
    static final long NANOS_PER_EVENT = 500;
    static final int FIRST_UNPRICED_FEATURE = 25;

    private final boolean priced;
    private final LongSupplier counted;
    private final LongSupplier jvmIntervalBytes;
    private long maxInterval;

    /**
     * @param javaFeatureVersion this JVM's: events are priced before {@link #FIRST_UNPRICED_FEATURE} only
     * @param counted            the agent's count of the JVM's sampling events so far (never reset)
     * @param jvmIntervalBytes   the JVM's sampling interval now, 0 while no capture samples
     */
    JvmEvents(int javaFeatureVersion, LongSupplier counted, LongSupplier jvmIntervalBytes) {
        this.priced = javaFeatureVersion < FIRST_UNPRICED_FEATURE;
        this.counted = counted;
        this.jvmIntervalBytes = jvmIntervalBytes;
    }

    /** Whether this JVM's events are priced (JDK 11-24). */
    boolean priced() {
        return priced;
    }

    /** The events so far (never reset); 0 where they are not priced. Notes the JVM's interval now. */
    synchronized long events() {
        if (!priced) {
            return 0;
        }
        maxInterval = Math.max(maxInterval, jvmIntervalBytes.getAsLong());
        return counted.getAsLong();
    }

    /** The JVM's interval now (0 while nothing samples). */
    long jvmInterval() {
        return jvmIntervalBytes.getAsLong();
    }

    /** The largest JVM interval seen since {@link #resetMaxInterval} (read at each {@link #events} call). */
    synchronized long maxInterval() {
        events();
        return maxInterval;
    }

    /** A capture starts: {@link #maxInterval} is its own from here. */
    synchronized void resetMaxInterval() {
        maxInterval = 0;
        events();
    }

    /** What the events so far cost the application, in nanoseconds. */
    long nanos() {
        return events() * NANOS_PER_EVENT;
    }

    /**
     * The least JVM interval at which the events would cost at most {@code allowanceNanosPerSecond}, from
     * what they cost at the interval that held: events of objects smaller than the interval fall in
     * proportion as it grows, and the few of objects larger than it (one each) are counted as they are, so
     * a mix of large arrays is not charged for events it never posted. 0 when the events cost nothing.
     */
    static long intervalFor(long heldInterval, double eventNanosPerSecond, double allowanceNanosPerSecond) {
        if (heldInterval <= 0 || eventNanosPerSecond <= 0) {
            return 0;
        }
        if (allowanceNanosPerSecond <= 0) {
            return Long.MAX_VALUE;
        }
        return (long) Math.ceil(heldInterval * eventNanosPerSecond / allowanceNanosPerSecond);
    }
}
