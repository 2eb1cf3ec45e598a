package io.heaptap.profile;

/**
 * What the agent could not keep because a bounded table was full, or refused on purpose. A
 * report that hides these invites wrong conclusions, so every format shows them.
 *
 * @param samplesDropped       samples lost because the site table was full
 * @param samplesWithoutStack  samples kept without their stack (stack or frame table full)
 * @param samplesStackError    samples kept without their stack (the JVM could not walk it)
 * @param samplesTruncated     samples whose stack was cut at the depth limit
 * @param samplesAfterDeadline samples refused because the time box had ended
 * @param classesDropped       samples whose class was counted under "[other classes]"
 * @param methodsUnresolved    methods whose names could not be resolved
 */
public record Drops(long samplesDropped, long samplesWithoutStack, long samplesStackError, long samplesTruncated,
                    long samplesAfterDeadline, long classesDropped, long methodsUnresolved) {

    /** Whether anything was lost or degraded (refusals after the deadline are not a loss). */
    public boolean anyLoss() {
        return samplesDropped + samplesWithoutStack + samplesStackError + samplesTruncated + classesDropped
                + methodsUnresolved > 0;
    }
}
