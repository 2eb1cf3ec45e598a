package io.heaptap.profile;

import java.util.List;

/**
 * Allocations of one type from one stack.
 *
 * @param stack            frames, innermost (the allocating method) first
 * @param truncated        the real stack was deeper than the capture's depth limit
 * @param type             the allocated type as a Java name, e.g. {@code byte[]}
 * @param samples          raw sample count (a count, not an estimate)
 * @param estimatedObjects Poisson-weighted estimate of objects allocated
 * @param estimatedBytes   Poisson-weighted estimate of bytes allocated
 */
public record AllocationSite(List<Frame> stack, boolean truncated, String type, long samples,
                             double estimatedObjects, double estimatedBytes) {
    public AllocationSite {
        stack = List.copyOf(stack);
    }
}
