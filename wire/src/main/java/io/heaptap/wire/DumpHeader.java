package io.heaptap.wire;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.SamplingCost;
import io.heaptap.profile.TargetInfo;

import java.time.Instant;
import java.util.List;

/**
 * What the Controller knows about a capture that the native snapshot does not: the JVM, the
 * capture's window, warnings, its GC cost, and the proof its live set is judged by. A profile is
 * this plus a decoded snapshot ({@link #profile}), in the target and in the CLI alike. It travels
 * to the CLI as JSON through {@link io.heaptap.profile.format.RecordJson} ({@link RawDump}): a
 * component added here needs no code of its own to get there.
 *
 * @param proof     what the live set is judged against (read in the target before the snapshot, with the
 *                  heap in use around it): which tracked objects a completed whole-heap marking examined
 * @param intervals the intervals the capture ran at (a range under a sample-rate target); null: the snapshot's one
 * @param cost      what the sampling cost the application over the capture; null: not measured
 */
public record DumpHeader(TargetInfo target, Instant startedAt, long durationNanos, List<String> warnings, GcCost gc,
                         LiveProof proof, IntervalRange intervals, SamplingCost cost) {
    public DumpHeader {
        warnings = List.copyOf(warnings);
        proof = proof == null ? LiveProof.NONE : proof;
    }

    /** A capture at the snapshot's one interval, its cost not measured. */
    public DumpHeader(TargetInfo target, Instant startedAt, long durationNanos, List<String> warnings, GcCost gc, LiveProof proof) {
        this(target, startedAt, durationNanos, warnings, gc, proof, null, null);
    }

    /**
     * The header of what was counted between {@code earlier} (a header of the same capture, or of
     * continuous sampling) and this one: from where the earlier one ended, for the time between them,
     * with the GC cost between them.
     */
    public DumpHeader since(DumpHeader earlier) {
        GcCost window = gc == null || earlier.gc == null ? gc : gc.since(earlier.gc);
        SamplingCost windowCost = cost == null || earlier.cost == null ? cost : cost.since(earlier.cost);
        return new DumpHeader(target, earlier.startedAt.plusNanos(earlier.durationNanos), Math.max(0, durationNanos - earlier.durationNanos),
                warnings, window, proof, intervals, windowCost);
    }

    public AllocationProfile profile(NativeSnapshot snapshot) {
        CaptureInfo info = new CaptureInfo(target, startedAt, durationNanos, snapshot.intervalBytes(), snapshot.stackDepth(),
                snapshot.samples(), snapshot.drops(), warnings, gc, intervals, cost);
        return new AllocationProfile(info, snapshot.live(), snapshot.sites());
    }
}
