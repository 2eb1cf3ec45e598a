package io.heaptap.profile;

import java.time.Instant;
import java.util.List;

/**
 * How a profile was captured.
 *
 * @param target         the JVM
 * @param startedAt      wall-clock start of sampling
 * @param durationNanos  how long sampling actually ran (so far, if still running)
 * @param intervalBytes  mean sampling interval R in bytes
 * @param stackDepth     maximum frames per stack
 * @param samples        samples recorded
 * @param drops          what was lost or refused
 * @param warnings       one-line warnings a reader must see (for example a biased JDK sampler)
 * @param gc             what the garbage collector cost over the same window
 */
public record CaptureInfo(TargetInfo target, Instant startedAt, long durationNanos, long intervalBytes, int stackDepth,
                          long samples, Drops drops, List<String> warnings, GcCost gc) {
    public CaptureInfo {
        warnings = List.copyOf(warnings);
        gc = gc == null ? GcCost.unknown("not measured") : gc;
    }
}
