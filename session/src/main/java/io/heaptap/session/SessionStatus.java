package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.SamplingCost;

import java.time.Instant;
import java.util.Locale;

/**
 * A consistent view of the session at one moment.
 *
 * @param state          idle / recording / stopped
 * @param startedBy      who started the current or last capture ("cli pid 123", "jconsole", ...)
 * @param startedAt      when it started, or null when idle
 * @param endsAt         when its time box ends, or null when idle
 * @param timeLeftMillis milliseconds left in the time box (0 unless recording)
 * @param options        its options, or null when idle
 * @param samples        samples recorded so far
 * @param nativeMemory   estimated bytes of native memory held by the agent
 * @param nativeError    why the native agent is unavailable, or null when it is fine
 * @param gc             what the garbage collector cost during the current (so far) or last capture; null when idle
 * @param intervalBytes  the sampling interval in force now (the last one when stopped); 0 when idle
 * @param intervals      every interval the current or last capture ran at; null when idle
 * @param continuous     continuous sampling in one line (since when, the service, the interval now); "" when off.
 *                       While it runs, a capture is a window over it and {@code samples} are the window's.
 * @param samplingCost   what the current (so far) or last capture's sampling cost the application; null when idle
 */
public record SessionStatus(SessionState state, String startedBy, Instant startedAt, Instant endsAt, long timeLeftMillis,
                            CaptureOptions options, long samples, long nativeMemory, String nativeError, GcCost gc,
                            long intervalBytes, IntervalRange intervals, String continuous, SamplingCost samplingCost) {
    public SessionStatus {
        continuous = continuous == null ? "" : continuous;
    }

    /** Without continuous sampling, the sampling's cost not measured. */
    public SessionStatus(SessionState state, String startedBy, Instant startedAt, Instant endsAt, long timeLeftMillis,
                         CaptureOptions options, long samples, long nativeMemory, String nativeError, GcCost gc,
                         long intervalBytes, IntervalRange intervals) {
        this(state, startedBy, startedAt, endsAt, timeLeftMillis, options, samples, nativeMemory, nativeError, gc, intervalBytes,
                intervals, "", null);
    }

    /** The same with another continuous line. */
    public SessionStatus withContinuous(String line) {
        return new SessionStatus(state, startedBy, startedAt, endsAt, timeLeftMillis, options, samples, nativeMemory, nativeError, gc,
                intervalBytes, intervals, line, samplingCost);
    }

    /** The sampling in words: {@code 512.0 KiB (fixed)}, or the interval now, its range and the target; {@code -} when idle. */
    public String describeSampling() {
        if (intervals == null) {
            return "-";
        }
        if (!intervals.adaptive()) {
            return HumanUnits.formatBytes(intervalBytes) + " (fixed)";
        }
        return String.format(Locale.ROOT, "%s now, %s over the capture (target %,d samples/s)", HumanUnits.formatBytes(intervalBytes),
                intervals.describe(), intervals.targetRate());
    }

    /** What the capture's sampling cost so far ({@link SamplingCost#describe}); {@code -} when idle or not measured. */
    public String describeSamplingCost() {
        return samplingCost == null || samplingCost == SamplingCost.UNKNOWN ? "-" : samplingCost.describe();
    }
}
