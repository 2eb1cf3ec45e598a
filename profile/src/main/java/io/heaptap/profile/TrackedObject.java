package io.heaptap.profile;

/**
 * One sampled object the agent still tracks through a weak reference, alive at dump time.
 *
 * @param sizeBytes   its size
 * @param objects     how many live objects it stands for (1 / its probability of being tracked)
 * @param bytes       how many live bytes it stands for
 * @param ageNanos    time since it was allocated
 * @param gcsSurvived collections since it was allocated
 * @param proven      a whole-heap marking that began after its allocation has completed and its
 *                    weak reference is still set: it was reachable then (otherwise it is not yet
 *                    examined, and may be garbage no collection has looked at)
 * @param heldByTracking until a marking examines it, heaptap's own weak reference may be what keeps it:
 *                    a large object on G1 (the reference blocks eager reclaim of humongous objects),
 *                    or any object under generational ZGC (minor collections leave JNI weak
 *                    references alone); such an object is never upscaled before it is proven
 */
public record TrackedObject(long sizeBytes, double objects, double bytes, long ageNanos, long gcsSurvived, boolean proven,
                            boolean heldByTracking) {
}
