package io.heaptap.profile;

/**
 * The state of live tracking behind a dump. The keep-probability below 1 means the table was
 * thinned: each tracked object then stands for more objects, and the estimate is less precise
 * (but still unbiased).
 *
 * @param enabled          whether the capture admits new samples to the live table
 * @param budget           maximum tracked objects
 * @param tracked          tracked objects alive at the dump (before filters)
 * @param keepProbability  probability a new sample is admitted now
 * @param admitted         samples ever admitted
 * @param skipped          samples not admitted (keep-probability below 1)
 * @param thinnings        times the table was thinned
 * @param thinnedEntries   entries removed by thinning
 * @param died             tracked objects found collected (and their weak refs deleted)
 * @param weakRefs         JNI weak references the agent holds right now
 * @param gcCount          collections of any kind seen by the agent so far
 * @param filter           the filter applied to this view
 * @param gcForced         a full GC was forced right before the dump
 * @param markings         the whole-heap markings behind the proven part
 * @param heapUsedBytes    heap in use at the dump (garbage included), -1 if unknown
 * @param heapMaxBytes     the heap's maximum size, -1 if unknown
 * @param hold             what tracking holds back of the heap, and its bound
 */
public record LiveInfo(boolean enabled, long budget, long tracked, double keepProbability, long admitted, long skipped,
                       long thinnings, long thinnedEntries, long died, long weakRefs, long gcCount, LiveFilter filter,
                       boolean gcForced, Markings markings, long heapUsedBytes, long heapMaxBytes, LiveHold hold) {
    public LiveInfo {
        hold = hold == null ? LiveHold.NONE : hold;
    }

    /** Without a known hold (LiveHold.NONE). */
    public LiveInfo(boolean enabled, long budget, long tracked, double keepProbability, long admitted, long skipped,
                    long thinnings, long thinnedEntries, long died, long weakRefs, long gcCount, LiveFilter filter,
                    boolean gcForced, Markings markings, long heapUsedBytes, long heapMaxBytes) {
        this(enabled, budget, tracked, keepProbability, admitted, skipped, thinnings, thinnedEntries, died, weakRefs, gcCount, filter,
                gcForced, markings, heapUsedBytes, heapMaxBytes, LiveHold.NONE);
    }

    /** The same with the hold given. */
    public LiveInfo withHold(LiveHold h) {
        return new LiveInfo(enabled, budget, tracked, keepProbability, admitted, skipped, thinnings, thinnedEntries, died, weakRefs,
                gcCount, filter, gcForced, markings, heapUsedBytes, heapMaxBytes, h);
    }
}
