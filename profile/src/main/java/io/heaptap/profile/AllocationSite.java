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
 * @param objectsVariance  the variance of {@code estimatedObjects} (Horvitz–Thompson, from the samples)
 * @param bytesVariance    the variance of {@code estimatedBytes}
 * @param live             what this site holds alive now (after the dump's filter)
 */
public record AllocationSite(List<Frame> stack, boolean truncated, String type, long samples,
                             double estimatedObjects, double estimatedBytes, double objectsVariance, double bytesVariance,
                             LiveStats live) {
    public AllocationSite {
        stack = List.copyOf(stack);
    }

    /** Estimated bytes allocated, with the interval. */
    public Estimate allocatedBytes() {
        return new Estimate(estimatedBytes, bytesVariance);
    }

    /** Estimated objects allocated, with the interval. */
    public Estimate allocatedObjects() {
        return new Estimate(estimatedObjects, objectsVariance);
    }

    /**
     * {@code com.example.Cache.put(Cache.java:42)}: the innermost frame outside the JDK and heaptap
     * ({@link ApplicationFrame}), or {@code [no-stack]}.
     */
    public String allocatedAt() {
        return allocatedAt(stack);
    }

    /** Where a stack (innermost first) allocated, as {@link #allocatedAt()} shows it. */
    public static String allocatedAt(List<Frame> stack) {
        return stack.isEmpty() ? "[no-stack]" : ApplicationFrame.of(stack).displayName();
    }

    /** Whether the site has anything to show: allocations in this capture or live objects. */
    public boolean isEmpty() {
        return samples == 0 && live.isEmpty();
    }
}
