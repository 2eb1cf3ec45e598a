package io.heaptap.profile;

/**
 * One sampled object the agent still tracks through a weak reference, alive at dump time.
 *
 * @param sizeBytes   its size
 * @param objects     how many live objects it stands for (Poisson weight / keep-probability)
 * @param bytes       how many live bytes it stands for
 * @param ageNanos    time since it was allocated
 * @param gcsSurvived collections since it was allocated
 */
public record TrackedObject(long sizeBytes, double objects, double bytes, long ageNanos, long gcsSurvived) {
}
