package io.heaptap.session;

import io.heaptap.nativeagent.LiveTracking;
import io.heaptap.profile.LiveHold;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live table's upkeep without a native library, for the live tracker's unit tests: it records
 * what the tracker tells it, and the test posts collections ({@link #finishCollection}) and sets
 * what the table holds ({@link #hold}).
 */
final class FakeLiveTracking implements LiveTracking {
    volatile long gcCount = -1;
    /** The JVMTI finishes last read in agreement with gcCount (-1: none agreed). */
    volatile long gcFinishesRead = -1;
    /** JVMTI GarbageCollectionFinish events the test posts ({@link #finishCollection}), and the live table's cleanings asked for. */
    final AtomicLong gcFinishes = new AtomicLong();
    final AtomicLong maintenances = new AtomicLong();
    /** The byte bound's clock as the tracker last set it, the releases it asked for, and what the table holds (the test sets it). */
    volatile long provenBefore = Long.MIN_VALUE;
    final AtomicLong releases = new AtomicLong();
    volatile LiveHold hold = LiveHold.NONE;
    private final Object signalLock = new Object();
    private long signals;

    @Override
    public void setProvenBefore(long nanos) {
        provenBefore = Math.max(provenBefore, nanos);
    }

    @Override
    public long releaseUnexamined() {
        LiveHold h = hold;
        hold = new LiveHold(h.byteBudget(), 0, h.trackedBytes() - h.unexaminedBytes(), h.byteThinnings(), h.byteThinnedEntries(),
                h.oversize(), h.releases() + 1, h.releasedEntries() + 1, h.byteLevel(), 0, false, "");
        // Counted after the hold changed: a test that waits for the count then reads the hold sees the release.
        releases.incrementAndGet();
        return 1;
    }

    @Override
    public LiveHold liveHold() {
        return hold;
    }

    @Override
    public void maintainLive() {
        maintenances.incrementAndGet();
    }

    @Override
    public void setGcCount(long count, long finishes) {
        gcCount = count;
        gcFinishesRead = finishes;
    }

    @Override
    public long gcFinishes() {
        return gcFinishes.get();
    }

    /** A collection that posts a JVMTI GarbageCollectionFinish event, as G1's young pauses do. */
    void finishCollection() {
        gcFinishes.incrementAndGet();
        signalCollection();
    }

    @Override
    public long collectionSignals() {
        synchronized (signalLock) {
            return signals;
        }
    }

    /** As the native wait: an interrupt does not end it (the flag is kept), only a signal or the timeout. */
    @Override
    public long awaitCollectionSignal(long seen, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        boolean interrupted = false;
        synchronized (signalLock) {
            long left;
            while (signals == seen && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(signalLock, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return signals;
        }
    }

    @Override
    public void signalCollection() {
        synchronized (signalLock) {
            signals++;
            signalLock.notifyAll();
        }
    }

    @Override
    public long weakRefs() {
        return 0;
    }
}
