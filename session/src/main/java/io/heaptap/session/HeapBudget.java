package io.heaptap.session;

import io.heaptap.profile.HumanUnits;

import java.util.concurrent.TimeUnit;

/**
 * heaptap's share of the application's heap: a sixteenth of the maximum heap, at least 2 MiB and
 * at most 64 MiB (6 MiB of a 96 MiB heap, 64 MiB from 1 GiB up). Everything heaptap builds on the
 * heap for a request (a decoded profile, an encoding of it) reserves its estimated size here first
 * and is refused if it cannot fit, so heaptap never takes the heap the application needs, and a
 * failed allocation of heaptap's never lands on an application thread. Requests that fit only
 * together wait a little for each other, then are refused.
 *
 * <p>Not counted, because they are small and fixed: heaptap's own objects (the controller, its
 * threads, a raw-dump chunk of {@link RawDumps#MAX_CHUNK_BYTES}) and the JMX or HTTP machinery's
 * buffers around a reply.
 */
public final class HeapBudget {
    static final long MIN_BYTES = 2L << 20;
    static final long MAX_BYTES = 64L << 20;
    static final int HEAP_SHARE = 16;
    private static final long WAIT_MILLIS = 10_000;

    private final long bytes;
    private long inUse;
    private long peak;

    HeapBudget(long bytes) {
        this.bytes = bytes;
    }

    public static HeapBudget forThisJvm() {
        return new HeapBudget(bytesFor(Runtime.getRuntime().maxMemory()));
    }

    /** The budget for a JVM of this maximum heap size. */
    static long bytesFor(long maxHeap) {
        return Math.max(MIN_BYTES, Math.min(MAX_BYTES, maxHeap / HEAP_SHARE));
    }

    public long bytes() {
        return bytes;
    }

    /** What requests hold now (a waiting delta scrape holds its baseline's share for its whole wait). */
    public synchronized long inUseBytes() {
        return inUse;
    }

    /** The most ever reserved at once (for the benchmarks and the curious). */
    public synchronized long peakBytes() {
        return peak;
    }

    /** What is reserved to a request; close it when what it built is gone (try-with-resources). */
    public final class Reservation implements AutoCloseable {
        private long held;

        private Reservation(long held) {
            this.held = held;
        }

        @Override
        public void close() {
            synchronized (HeapBudget.this) {
                inUse -= held;
                held = 0;
                HeapBudget.this.notifyAll();
            }
        }
    }

    /**
     * Reserves an estimated {@code estimate} bytes for {@code what} ("a json dump"), waiting up to
     * ten seconds for other requests to give theirs back if {@code wait}; {@code instead} says how
     * to get the profile when it can never fit.
     *
     * @throws HeapBudgetException the estimate exceeds the budget, or the wait was in vain
     */
    public Reservation reserve(long estimate, String what, String instead, boolean wait) {
        long need = Math.max(0, estimate);
        if (need > bytes) {
            throw new HeapBudgetException(what + " needs about " + HumanUnits.formatBytes(need) + " of this JVM's heap, more than"
                    + " heaptap's budget of " + HumanUnits.formatBytes(bytes) + " (a sixteenth of the heap, at most 64 MiB); "
                    + instead);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        synchronized (this) {
            while (inUse + need > bytes) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !wait) {
                    throw new HeapBudgetException("heaptap's heap budget in this JVM (" + HumanUnits.formatBytes(bytes)
                            + ") is taken by other requests in progress; retry shortly");
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new HeapBudgetException("interrupted while waiting for heaptap's heap budget");
                }
            }
            inUse += need;
            peak = Math.max(peak, inUse);
            return new Reservation(need);
        }
    }
}
