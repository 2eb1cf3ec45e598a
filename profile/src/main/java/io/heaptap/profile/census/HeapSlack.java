package io.heaptap.profile.census;

/**
 * How far from the moment a time to OOM's reading reaches the maximum heap the JVM can fail, as shares of the maximum:
 * read from the collector's flags by the session, applied by {@link TimeToOom} to the ends of its interval.
 * <ul>
 * <li>{@code deadWoodShare}, later: garbage a forced full collection leaves in place, which the collector's figure
 * counts and the collection before an OutOfMemoryError frees (G1, Parallel, Serial: {@code MarkSweepDeadRatio}).</li>
 * <li>{@code reserveShare}, earlier: heap the collector cannot fill with live objects, which the census's live bytes
 * do not count (ZGC: it does not relocate a page with less than {@code ZFragmentationLimit} percent garbage, so the
 * JVM fails once the live set leaves that little room; measured against a real OutOfMemoryError, 512 MiB: generational
 * ZGC (5%) failed with 96% of the heap live, ZGC on JDK 17 (25%) with 84%).</li>
 * <li>{@code fullCompactionEvery}: Serial leaves its dead space at every full collection but each
 * {@code MarkSweepAlwaysCompactCount}-th, which compacts everything: a sawtooth of up to 5% of its old generation's
 * capacity (#36's scenario, 4 GiB: 1,095, 1,143, 1,179, 1,192, then 1,100 MB), where a line through every reading says
 * "no trend". The line then follows the fully compacted readings alone ({@link TimeToOom.Point#compacted}), which hold
 * no dead wood. 0 where no collection is known to compact fully.</li>
 * </ul>
 *
 * @param deadWoodShare       0 to {@link #MAX_SHARE}
 * @param reserveShare        0 to {@link #MAX_SHARE}
 * @param fullCompactionEvery every how many full collections one compacts everything; 0: none known
 */
public record HeapSlack(double deadWoodShare, double reserveShare, int fullCompactionEvery) {
    /** No slack: the JVM fails as the reading reaches the maximum. */
    public static final HeapSlack NONE = new HeapSlack(0, 0, 0);
    /** A larger share says nothing about when the heap runs out: shares are capped here. */
    public static final double MAX_SHARE = 0.5;

    public HeapSlack {
        deadWoodShare = bounded(deadWoodShare);
        reserveShare = bounded(reserveShare);
        fullCompactionEvery = Math.max(0, fullCompactionEvery);
    }

    private static double bounded(double share) {
        return Double.isNaN(share) ? 0 : Math.min(MAX_SHARE, Math.max(0, share));
    }
}
