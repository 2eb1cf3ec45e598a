package io.heaptap.profile;

/**
 * What live tracking holds back of the application's heap, and its bound. A tracked object not yet
 * examined by a whole-heap marking may be alive only through heaptap's weak reference, so the sizes of
 * those objects are bounded in bytes, as a share of the maximum heap: strictest where the collector's
 * young collections leave weak references alone (generational ZGC and Shenandoah). The live table
 * thins by bytes to stay under it, and lets go of all of them when the heap is critical.
 *
 * @param byteBudget         the bound: bytes of not yet examined tracked objects at most (both strata), 0: none
 * @param unexaminedBytes    sizes of the tracked objects not yet examined, now
 * @param trackedBytes       sizes of every tracked object, now
 * @param byteThinnings      times the bound thinned the table
 * @param byteThinnedEntries tracked objects those thinnings let go
 * @param oversize           samples larger than the whole bound, never tracked
 * @param releases           times the heap was critical and every not yet examined object was let go
 * @param releasedEntries    tracked objects let go by those
 * @param byteLevel          objects larger than this many bytes are admitted with probability level/size; 0: all
 * @param share              the bound as a share of the maximum heap (0.015 = 1.5%), 0 when unknown
 * @param strict             the collector's young collections keep weakly referenced young garbage
 * @param collector          the collector's name, "" when unknown
 */
public record LiveHold(long byteBudget, long unexaminedBytes, long trackedBytes, long byteThinnings, long byteThinnedEntries,
                       long oversize, long releases, long releasedEntries, double byteLevel, double share, boolean strict,
                       String collector) {
    /** Nothing known (a fake sampler, a snapshot without tracking). */
    public static final LiveHold NONE = new LiveHold(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, "");

    /** The same figures with the session's policy: the bound's share, strictness and the collector. */
    public LiveHold withPolicy(double share, boolean strict, String collector) {
        return new LiveHold(byteBudget, unexaminedBytes, trackedBytes, byteThinnings, byteThinnedEntries, oversize, releases,
                releasedEntries, byteLevel, share, strict, collector);
    }

    /** Fewer tracked objects than this, after the bound thinned them, say too little to rely on. */
    public static final long TOO_THIN = 30;

    /** The bound cut the sample down: the live estimates rest on fewer objects than the sampling gave. */
    public boolean thinned() {
        return byteThinnings > 0 || oversize > 0 || releases > 0;
    }

    /** The bound cut the sample down so far that {@code tracked} objects say little (95% intervals of 35% and more). */
    public boolean tooThin(long tracked) {
        return thinned() && tracked < TOO_THIN;
    }
}
