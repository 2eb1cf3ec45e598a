package io.heaptap.session;

import io.heaptap.profile.HumanUnits;

import java.util.concurrent.TimeUnit;

/**
 * heaptap's share of the application's heap: a sixteenth of the maximum heap, at least 2 MiB and
 * at most 64 MiB (6 MiB of a 96 MiB heap, 64 MiB from 1 GiB up). Everything heaptap builds on the
 * heap for a request (a decoded profile, an encoding of it) reserves its estimated size here first
 * and is refused if it cannot fit, so heaptap never takes the heap the application needs, and a
 * failed allocation of heaptap's never lands on an application thread. Requests that fit only
 * together wait a little for each other, then are refused. What is kept for a while (the baseline of
 * a delta scrape, for its N seconds; a leak watch's per-site history, until the next watch or a reset) may
 * together take only what leaves room to decode beside it: waiting scrapes never starve their own ends nor
 * anyone else's request.
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
    /** The part of {@link #inUse} kept for a while (delta scrapes' baselines, for their windows). */
    private long kept;
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

    /** What reservations kept for a while hold now (delta scrapes waiting out their windows). */
    public synchronized long keptBytes() {
        return kept;
    }

    /** The most ever reserved at once (for the benchmarks and the curious). */
    public synchronized long peakBytes() {
        return peak;
    }

    /** What is reserved to a request; close it when what it built is gone (try-with-resources). */
    public final class Reservation implements AutoCloseable {
        private long held;
        private final boolean keptAWhile;

        private Reservation(long held, boolean keptAWhile) {
            this.held = held;
            this.keptAWhile = keptAWhile;
        }

        /** Gives back all but {@code bytes} (what was built is smaller than estimated, or its buffers are gone). */
        public void keepOnly(long bytes) {
            synchronized (HeapBudget.this) {
                long back = Math.max(0, held - Math.max(0, bytes));
                held -= back;
                inUse -= back;
                if (keptAWhile) {
                    kept -= back;
                }
                HeapBudget.this.notifyAll();
            }
        }

        @Override
        public void close() {
            synchronized (HeapBudget.this) {
                inUse -= held;
                if (keptAWhile) {
                    kept -= held;
                }
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
        return reserve(estimate, what, instead, wait, -1);
    }

    /**
     * Reserves {@code estimate} bytes for something kept a while (a delta scrape's baseline, for its
     * window), as {@link #reserve} does, but refused at once when, with everything else kept so,
     * {@code headroom} bytes (what its end will reserve briefly) would no longer fit: what waits never
     * takes the room that the ends of the waits, and every other request, need to decode.
     *
     * @throws HeapBudgetException it does not fit, now or beside the other kept reservations
     */
    public Reservation reserveKept(long estimate, long headroom, String what, String instead) {
        return reserve(estimate, what, instead, true, Math.max(0, headroom));
    }

    private Reservation reserve(long estimate, String what, String instead, boolean wait, long keptHeadroom) {
        long need = Math.max(0, estimate);
        if (need > bytes) {
            throw new HeapBudgetException(what + " needs about " + HumanUnits.formatBytes(need) + " of this JVM's heap, more than"
                    + " heaptap's budget of " + HumanUnits.formatBytes(bytes) + " (a sixteenth of the heap, at most 64 MiB); "
                    + instead);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        synchronized (this) {
            if (keptHeadroom >= 0 && kept == 0 && need + keptHeadroom > bytes) {
                throw new HeapBudgetException(what + " and its end need about " + HumanUnits.formatBytes(need + keptHeadroom)
                        + " of this JVM's heap together, more than heaptap's budget of " + HumanUnits.formatBytes(bytes)
                        + " (a sixteenth of the heap, at most 64 MiB); " + instead);
            }
            if (keptHeadroom >= 0 && kept + need + keptHeadroom > bytes) {
                String keptBy = HumanUnits.formatBytes(kept) + " of heaptap's heap budget in this JVM (" + HumanUnits.formatBytes(bytes)
                        + ") is kept by delta scrapes (?seconds=N) waiting out their windows, a capture's window or a leak watch's history";
                throw new HeapBudgetException(keptHeadroom == 0 ? what + " cannot be kept: " + keptBy + "; " + instead
                        : what + " cannot be kept: " + keptBy + ", and the " + HumanUnits.formatBytes(keptHeadroom)
                        + " their ends need to decode must stay free; retry when one ends, or scrape without ?seconds= and subtract"
                        + " successive scrapes");
            }
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
            if (keptHeadroom >= 0) {
                kept += need;
            }
            peak = Math.max(peak, inUse);
            return new Reservation(need, keptHeadroom >= 0);
        }
    }
}
