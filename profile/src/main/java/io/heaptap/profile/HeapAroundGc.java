package io.heaptap.profile;

/**
 * Heap used right before and after the collections of a capture (summed over the heap's pools):
 * for a stop-the-world collection the gap is what it freed and the level after is roughly the live
 * set. A concurrent cycle (ZGC, Shenandoah) is read at its start and its end, and the application
 * allocates in between: on a full heap the level at the end is about that at the start
 * ({@link GcCost#heapReadAroundCycles()} says which, and the reports say so). Every collection that
 * can prove liveness is read, and of the others (young ones) the last one in each short poll, weighed
 * as all the collections that poll found: where young collections come faster than the polls, the
 * means are estimates from the ones read, and the highest level after is the highest of those.
 *
 * @param collections        collections counted (read, or stood for by one read)
 * @param meanBeforeBytes    mean heap used before a collection
 * @param meanAfterBytes     mean heap used after a collection
 * @param maxAfterBytes      the highest heap used after a collection
 */
public record HeapAroundGc(long collections, long meanBeforeBytes, long meanAfterBytes, long maxAfterBytes) {
    public static final HeapAroundGc NONE = new HeapAroundGc(0, 0, 0, 0);
}
