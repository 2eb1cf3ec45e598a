package io.heaptap.session;

import java.lang.management.ManagementFactory;

/**
 * The application's allocation rate, from the JVM's own count of bytes allocated by all threads
 * (exact, and read at each of the sample-rate target's readings, every 100 ms: cheap). Before
 * JDK 25 the native agent raises the JVM's sampling interval with it, since every JVM sample costs
 * there even when the agent drops it
 * ({@code JvmSamplingInterval}).
 */
final class AllocationRate {
    private final com.sun.management.ThreadMXBean threads = threadBean();
    private long lastBytes = -1;
    private long lastNanos;

    /** Bytes a second since the previous call, or -1 when unknown (the first call, or no JVM count). */
    long next(long nanos) {
        long bytes = total();
        long rate = -1;
        if (bytes >= 0 && lastBytes >= 0 && nanos > lastNanos) {
            rate = (long) (Math.max(0, bytes - lastBytes) * 1e9 / (nanos - lastNanos));
        }
        lastBytes = bytes;
        lastNanos = nanos;
        return rate;
    }

    /** Bytes allocated by all threads so far, or -1 when the JVM does not count them. */
    long total() {
        try {
            return threads == null ? -1 : threads.getTotalThreadAllocatedBytes();
        } catch (RuntimeException e) {  // UnsupportedOperationException where the JVM does not count
            return -1;
        }
    }

    private static com.sun.management.ThreadMXBean threadBean() {
        return ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled() ? bean : null;
    }
}
