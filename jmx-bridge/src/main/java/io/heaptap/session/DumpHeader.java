package io.heaptap.session;

import io.heaptap.nativeagent.NativeSnapshot;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.TargetInfo;

import java.time.Instant;
import java.util.List;

/**
 * What the Controller knows about a capture that the native snapshot does not: the JVM, the
 * capture's window, warnings, its GC cost, and which live objects a forced GC tested. A profile is
 * this plus a decoded snapshot ({@link #profile}), in the target and in the CLI alike. It travels
 * to the CLI as JSON through {@link io.heaptap.profile.format.RecordJson} ({@link RawDump}): a
 * component added here needs no code of its own to get there.
 *
 * @param bornBeforeNanos live objects born at or after this {@code System.nanoTime()} of the target
 *                        are left out (a forced GC tested only older ones); Long.MAX_VALUE for none
 */
public record DumpHeader(TargetInfo target, Instant startedAt, long durationNanos, List<String> warnings, GcCost gc,
                         long bornBeforeNanos) {
    public DumpHeader {
        warnings = List.copyOf(warnings);
    }

    public AllocationProfile profile(NativeSnapshot snapshot) {
        CaptureInfo info = new CaptureInfo(target, startedAt, durationNanos, snapshot.intervalBytes(), snapshot.stackDepth(),
                snapshot.samples(), snapshot.drops(), warnings, gc);
        return new AllocationProfile(info, snapshot.live(), snapshot.sites());
    }
}
