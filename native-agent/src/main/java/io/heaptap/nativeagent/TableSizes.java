package io.heaptap.nativeagent;

/**
 * How big the agent's tables are now: what a dump's cost on the Java heap is estimated from
 * before anything is decoded (sampler.h, kTableSizes; read by {@link NativeAgent#tableSizes}).
 *
 * @param classes         allocated class names
 * @param classBytes      their total length
 * @param methods         resolved methods
 * @param methodNameBytes their class signatures, names and source files, in all
 * @param lineEntries     their line-table entries, in all
 * @param frames          distinct (method, position) frames
 * @param stacks          distinct stacks
 * @param stackFrames     frames of all stacks together
 * @param sites           (stack, class) sites
 * @param weakRefs        tracked objects (and weak references waiting to be deleted)
 */
public record TableSizes(long classes, long classBytes, long methods, long methodNameBytes, long lineEntries, long frames,
                         long stacks, long stackFrames, long sites, long weakRefs) {
    /** How many figures the agent reports, in the order of the components above (kTableSizes; NativeConstantsTest). */
    static final int COUNT = 10;
    /** No agent, or nothing counted yet. */
    static final TableSizes NONE = new TableSizes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * The figures as {@code tableSizes0} hands them over, Sampler::tableSizes' order; the one place the
     * array is read by position. Null (the agent could not allocate the array) reads as {@link #NONE}.
     */
    static TableSizes of(long[] s) {
        if (s == null) {
            return NONE;
        }
        if (s.length != COUNT) {
            throw new IllegalStateException("the native agent reported " + s.length + " table sizes, not " + COUNT);
        }
        return new TableSizes(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]);
    }
}
