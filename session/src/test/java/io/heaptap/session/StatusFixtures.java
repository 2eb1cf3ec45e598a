package io.heaptap.session;

import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.SamplingCost;
import io.heaptap.wire.options.CaptureOptions;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The status figures the status tests of every door start from: one G1 capture of 30 s, ended. */
public final class StatusFixtures {
    private StatusFixtures() {
    }

    /** G1's cost over the capture: 400 young pauses of {@code pauseMillis} in all, GC threads at 10% of the CPU. */
    public static GcCost gc(long pauseMillis) {
        return new GcCost("G1", new HeapSizing(16L << 20, 40L << 20, 256L << 20, 256L << 20),
                30_000_000_000L, List.of(new CollectorCost("G1 Young Generation", CollectorCost.Kind.PAUSES, 400, pauseMillis)),
                new HeapAroundGc(400, 200L << 20, 20L << 20, 30L << 20),
                new GcCpu(true, null, 6_000_000_000L, 60_000_000_000L, 4, List.of("GC Thread#"), null));
    }

    /** A 30 s capture at the cost-bounded default, ended: 300 samples, an adaptive interval of 32-256 KiB. */
    public static SessionStatus stopped(GcCost gc) {
        return new SessionStatus(SessionState.STOPPED, "cli pid 7",
                Instant.parse("2026-11-21T10:00:00Z"), Instant.parse("2026-11-21T10:00:30Z"), 0,
                new CaptureOptions(Duration.ofSeconds(30), 65_536, 64, 65_536, true, 4096, 5_000), 300, 123_456, null, gc,
                131_072, new IntervalRange(32_768, 262_144, 5_000), "", new SamplingCost(300, 1_350_000L, 60_000_000_000L, 0.02));
    }
}
