package io.heaptap.profile;

import java.time.Instant;
import java.util.List;

/**
 * How a profile was captured.
 *
 * @param target         the JVM
 * @param startedAt      wall-clock start of sampling
 * @param durationNanos  how long sampling actually ran (so far, if still running)
 * @param intervalBytes  mean sampling interval R in bytes (the last one, when it followed a sample-rate target)
 * @param stackDepth     maximum frames per stack
 * @param samples        samples recorded
 * @param drops          what was lost or refused
 * @param warnings       one-line warnings a reader must see (for example a biased JDK sampler)
 * @param gc             what the garbage collector cost over the same window
 * @param intervals      every interval in force during the capture, and the sample-rate target if any
 * @param samplingCost   what heaptap's sampling cost the application over the same window
 */
public record CaptureInfo(TargetInfo target, Instant startedAt, long durationNanos, long intervalBytes, int stackDepth,
                          long samples, Drops drops, List<String> warnings, GcCost gc, IntervalRange intervals,
                          SamplingCost samplingCost) {
    public CaptureInfo {
        warnings = List.copyOf(warnings);
        gc = gc == null ? GcCost.unknown("not measured") : gc;
        intervals = intervals == null ? IntervalRange.fixed(intervalBytes) : intervals;
        samplingCost = samplingCost == null ? SamplingCost.UNKNOWN : samplingCost;
    }

    /** A capture at one fixed interval, its sampling cost not measured. */
    public CaptureInfo(TargetInfo target, Instant startedAt, long durationNanos, long intervalBytes, int stackDepth,
                       long samples, Drops drops, List<String> warnings, GcCost gc) {
        this(target, startedAt, durationNanos, intervalBytes, stackDepth, samples, drops, warnings, gc, null, null);
    }

    /** Samples recorded per second of capture (0 for an empty window). */
    public double samplesPerSecond() {
        return durationNanos <= 0 ? 0 : samples * 1e9 / durationNanos;
    }
}
