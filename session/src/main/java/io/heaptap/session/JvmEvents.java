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
 * <p>Counted, not guessed: the JVM posts one event per interval of bytes a thread allocates (a Poisson
 * process over bytes), so the events are the bytes allocated (the JVM's own exact count) over the JVM's
 * interval, summed over each span the interval held. An object larger than the interval takes one event,
 * not several, so on a mix of large arrays this counts high: the bound errs on the safe side. On JDK 25
 * nothing is thinned (an event is a kept sample) and the JVM's part of it is not priced.
 */
final class JvmEvents {
    /** What one event costs its thread on JDK 17, in nanoseconds (bench JvmEventPrice, a loaded two-core machine). */
    static final long NANOS_PER_EVENT = 500;
    static final int FIRST_UNPRICED_FEATURE = 25;

    private final boolean priced;
    private final LongSupplier allocatedBytes;
    private final LongSupplier jvmIntervalBytes;
    private long lastBytes = -1;
    private long lastInterval;
    private double events;
    private long maxInterval;

    /**
     * @param javaFeatureVersion this JVM's: events are priced before {@link #FIRST_UNPRICED_FEATURE} only
     * @param allocatedBytes     bytes allocated by all threads so far, -1 when unknown
     * @param jvmIntervalBytes   the JVM's sampling interval now, 0 while no capture samples
     */
    JvmEvents(int javaFeatureVersion, LongSupplier allocatedBytes, LongSupplier jvmIntervalBytes) {
        this.priced = javaFeatureVersion < FIRST_UNPRICED_FEATURE;
        this.allocatedBytes = allocatedBytes;
        this.jvmIntervalBytes = jvmIntervalBytes;
    }

    /** Whether this JVM's events are priced (JDK 11-24). */
    boolean priced() {
        return priced;
    }

    /**
     * The events so far (never reset). Call it before every change of the JVM's interval: the bytes since the
     * previous call are charged to the interval that held over them.
     */
    synchronized long events() {
        if (!priced) {
            return 0;
        }
        long bytes = allocatedBytes.getAsLong();
        if (bytes >= 0 && lastBytes >= 0 && lastInterval > 0) {
            events += Math.max(0, bytes - lastBytes) / (double) lastInterval;
        }
        lastBytes = bytes;
        lastInterval = jvmIntervalBytes.getAsLong();
        maxInterval = Math.max(maxInterval, lastInterval);
        return (long) events;
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
     * The least JVM interval at which {@code allocatedBytesPerSecond} posts events costing at most
     * {@code nanosPerSecond}: each interval of bytes is one event.
     */
    static long intervalFor(double allocatedBytesPerSecond, double nanosPerSecond) {
        if (allocatedBytesPerSecond <= 0) {
            return 0;
        }
        if (nanosPerSecond <= 0) {
            return Long.MAX_VALUE;
        }
        return (long) Math.ceil(allocatedBytesPerSecond * NANOS_PER_EVENT / nanosPerSecond);
    }
}
