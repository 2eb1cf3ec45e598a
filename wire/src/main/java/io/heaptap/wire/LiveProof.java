package io.heaptap.wire;

import io.heaptap.profile.LiveHold;
import io.heaptap.profile.Markings;

/**
 * What a snapshot's live set is judged against: tracked objects allocated before
 * {@code provenBeforeNanos} ({@link System#nanoTime()}) were examined by a completed whole-heap
 * marking and are proven live if still tracked; the rest are not yet examined.
 *
 * @param provenBeforeNanos the proof's instant, Long.MIN_VALUE when no marking has completed
 * @param markings          the marking clock, as views show it
 * @param gcForced          a full collection was forced right before the snapshot
 * @param heapUsedBytes     heap in use around the snapshot (the larger of the readings before and after it), -1 until read
 * @param trackingHoldsAll  the collector's young collections leave JNI weak references alone (generational
 *                          ZGC), so before a marking any tracked object may be alive only through heaptap
 * @param heapUsedBytes     heap in use around the snapshot (the larger of the readings before and after it), -1 until read
 * @param heapMaxBytes      the heap's maximum, -1 until read (or when undefined)
 * @param policy            the byte bound's policy (share of the heap, strictness, collector) the snapshot's hold is shown with
 */
public record LiveProof(long provenBeforeNanos, Markings markings, boolean gcForced, boolean trackingHoldsAll, long heapUsedBytes,
                        long heapMaxBytes, LiveHold policy) {
    /** No proof at all: every tracked object is not yet examined. */
    public static final LiveProof NONE = new LiveProof(Long.MIN_VALUE, Markings.NONE, false, false, -1, -1);

    public LiveProof {
        policy = policy == null ? LiveHold.NONE : policy;
    }

    public LiveProof(long provenBeforeNanos, Markings markings, boolean gcForced, boolean trackingHoldsAll, long heapUsedBytes,
                     long heapMaxBytes) {
        this(provenBeforeNanos, markings, gcForced, trackingHoldsAll, heapUsedBytes, heapMaxBytes, LiveHold.NONE);
    }

    /** The same proof, its hold shown with this policy. */
    public LiveProof withPolicy(LiveHold p) {
        return new LiveProof(provenBeforeNanos, markings, gcForced, trackingHoldsAll, heapUsedBytes, heapMaxBytes, p);
    }

    public LiveProof(long provenBeforeNanos, Markings markings, boolean gcForced, boolean trackingHoldsAll) {
        this(provenBeforeNanos, markings, gcForced, trackingHoldsAll, -1, -1);
    }

    /** The same proof with the heap in use around the snapshot. */
    public LiveProof withHeap(long used, long max) {
        return new LiveProof(provenBeforeNanos, markings, gcForced, trackingHoldsAll, used, max, policy);
    }
}
