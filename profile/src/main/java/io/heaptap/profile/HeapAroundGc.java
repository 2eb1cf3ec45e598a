package io.heaptap.profile;

/**
 * Heap used right before and after the collections of a capture (summed over the heap's pools,
 * from each collection's notification): the gap is what a collection freed, the level after is
 * roughly the live set.
 *
 * @param collections        collections whose notification was seen
 * @param meanBeforeBytes    mean heap used before a collection
 * @param meanAfterBytes     mean heap used after a collection
 * @param maxAfterBytes      the highest heap used after a collection
 */
public record HeapAroundGc(long collections, long meanBeforeBytes, long meanAfterBytes, long maxAfterBytes) {
    public static final HeapAroundGc NONE = new HeapAroundGc(0, 0, 0, 0);
}
