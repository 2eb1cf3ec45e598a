package io.heaptap.session;

import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.LiveHold;

import java.util.Locale;

/**
 * The bound on what live tracking holds back of the application's heap: the sizes of tracked objects
 * not yet examined by a whole-heap marking, at most {@link #share} of the maximum heap, split between
 * the live table's main and large-object strata (liveTable.h enforces it).
 *
 * <p>Why these shares. A JNI weak reference keeps its object until a collection proves it dead. Where
 * young collections clear weak references to dead young objects (G1, Parallel, Serial, single-generation
 * ZGC and Shenandoah, whose every cycle marks the whole heap), a tracked object not yet examined has
 * mostly survived a young collection already: what tracking holds back is old garbage awaiting the next
 * marking, so {@value #LENIENT_PERCENT}% of the heap, and a tracked object counts there only once it has survived a
 * collection (SamplerSettings.youngHeld false). Generational ZGC's young cycles, and generational
 * Shenandoah's, leave JNI weak references alone: every sampled young object lives until a major cycle,
 * and sampling is size-biased, so the largest young garbage is held first. Measured without a bound
 * (issue 33, JDK 25, -Xmx1g, 300 MB live set, garbage flat out): 382 MiB (38% of the heap) held, mean
 * heap after GC 897 MiB against 617 MiB with --no-live, stall time x6.6. The goal there is heap after GC
 * within 2% of the heap of --no-live's, so the bound is {@value #STRICT_PERCENT}% (half a percent left for
 * what the table admits between two cleanings). G1's humongous objects (the large stratum) keep their
 * 1% of the heap, measured before (LargeObjects); generational ZGC's objects of 2 MiB and more get a
 * third of the strict share.
 *
 * @param mainBytes  the main stratum's bound, bytes
 * @param largeBytes the large stratum's bound, bytes (0 without a large stratum)
 * @param share      both together as a share of the maximum heap
 * @param strict     the collector's young collections keep weakly referenced young garbage
 * @param collector  the collector's name
 * @param asked      the user asked for this bound (--live-bytes)
 */
record LiveBound(long mainBytes, long largeBytes, double share, boolean strict, String collector, boolean asked) {
    static final String STRICT_PERCENT = "1.5";
    static final String LENIENT_PERCENT = "5";
    static final double STRICT_SHARE = 0.015;
    static final double LENIENT_SHARE = 0.05;
    /** G1's humongous objects: the share the large stratum had by its count budget (LargeObjects). */
    static final double G1_LARGE_SHARE = 0.01;
    /** More than this a user cannot ask tracking to hold back: the application's heap is not ours. */
    static final double MAX_SHARE = 0.25;

    /** Whether weak references keep young garbage until a whole-heap marking on this collector. */
    static boolean strict(GcBeans beans) {
        return beans.names().contains("ZGC Minor Cycles") || beans.generationalShenandoah();
    }

    /**
     * The bound for this JVM: {@code requested} (a share of the heap when below 1, else bytes; 0 for the
     * default), refused above {@link #MAX_SHARE} of the heap with a one-line message naming the bound.
     */
    static LiveBound of(GcBeans beans, LargeObjects large, long maxHeap, double requested) {
        boolean strict = strict(beans);
        String collector = beans.collectorName();
        if (maxHeap <= 0 || maxHeap == Long.MAX_VALUE) {
            return new LiveBound(0, 0, 0, strict, collector, requested > 0);  // no maximum: nothing to take a share of
        }
        double share = strict ? STRICT_SHARE : LENIENT_SHARE;
        if (requested > 0) {
            double asked = requested < 1 ? requested : requested / maxHeap;
            if (asked > MAX_SHARE) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "live bytes %s is more than tracking may hold back"
                        + " of this heap: at most %.0f%% of the maximum heap %s, %s", describeRequest(requested),
                        MAX_SHARE * 100, HumanUnits.formatBytes(maxHeap), HumanUnits.formatBytes((long) (maxHeap * MAX_SHARE))));
            }
            share = asked;
        }
        long total = (long) (maxHeap * share);
        if (large.threshold() <= 0) {
            return new LiveBound(total, 0, share, strict, collector, requested > 0);
        }
        long largeBytes = strict ? total / 3 : Math.min(total / 2, (long) (maxHeap * G1_LARGE_SHARE * share / LENIENT_SHARE));
        return new LiveBound(total - largeBytes, largeBytes, share, strict, collector, requested > 0);
    }

    private static String describeRequest(double requested) {
        return requested < 1 ? String.format(Locale.ROOT, "%.3g%%", requested * 100) : HumanUnits.formatBytes((long) requested);
    }

    /** The policy a snapshot's hold is shown with. */
    LiveHold policy() {
        return LiveHold.NONE.withPolicy(share, strict, collector);
    }
}
