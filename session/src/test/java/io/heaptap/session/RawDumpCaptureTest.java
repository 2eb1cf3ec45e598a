package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.TargetInfo;
import io.heaptap.wire.CounterWindow;
import io.heaptap.wire.DumpHeader;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.RawDump;
import io.heaptap.wire.SiteCounters;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A real capture read back through the raw dump the CLI decodes is the profile the target decodes
 * itself, a window of the counters (a capture during continuous sampling) included.
 */
class RawDumpCaptureTest {
    static volatile Object sink;

    static final DumpHeader HEADER = new DumpHeader(new TargetInfo(4242, "17.0.15", "OpenJDK 64-Bit Server VM", "app.Main"),
            Instant.parse("2026-11-22T10:51:08.857304888Z"), 5_200_000_000L, List.of("a warning"), null, LiveProof.NONE);

    @Test
    void aCaptureReadThroughTheRawDumpIsTheProfileTheTargetDecodes() throws Exception {
        NativeAgent agent = NativeAgent.get();
        agent.start(SamplerSettings.withoutLargeStratum(16 * 1024, Duration.ofMinutes(1), 64, 1024, 1024));
        for (int i = 0; i < 100_000; i++) {
            sink = new byte[256];
        }
        agent.stop();
        try {
            NativeSnapshot direct = agent.snapshot(LiveFilter.NONE, LiveProof.NONE);
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            raw.write(RawDump.prefix(HEADER, CounterWindow.ALL));
            try (RawSnapshot snapshot = agent.openSnapshot(LiveProof.NONE); InputStream in = snapshot.stream()) {
                in.transferTo(raw);
            }
            AllocationProfile read = RawDump.read(new ByteArrayInputStream(raw.toByteArray()), LiveFilter.NONE);
            AllocationProfile expected = HEADER.profile(direct);
            assertEquals(expected.info(), read.info());
            assertEquals(expected.sites().size(), read.sites().size());
            assertEquals(expected.totals(), read.totals());
            assertTrue(read.totals().samples() > 0);
        } finally {
            agent.clear();
        }
    }

    /**
     * A window's counters travel with the raw dump and the CLI applies them as the target does: only
     * what was allocated between the window's two readings, none of what came before or after.
     */
    @Test
    void aWindowReadThroughTheRawDumpCountsBetweenItsEndsOnly() throws Exception {
        NativeAgent agent = NativeAgent.get();
        agent.start(SamplerSettings.withoutLargeStratum(16 * 1024, Duration.ofMinutes(1), 64, 1024, 1024));
        try {
            allocateBytes();
            SiteCounters from = agent.counters();
            for (int i = 0; i < 100_000; i++) {
                sink = new long[32];
            }
            SiteCounters until = agent.counters();
            allocateBytes();
            agent.stop();
            CounterWindow window = new CounterWindow(from, until);
            NativeSnapshot direct = agent.snapshot(LiveFilter.NONE, LiveProof.NONE);
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            raw.write(RawDump.prefix(HEADER, window));
            try (RawSnapshot snapshot = agent.openSnapshot(LiveProof.NONE); InputStream in = snapshot.stream()) {
                in.transferTo(raw);
            }
            AllocationProfile read = RawDump.read(new ByteArrayInputStream(raw.toByteArray()), LiveFilter.NONE);
            AllocationProfile expected = HEADER.profile(window.apply(direct));
            assertEquals(expected.totals(), read.totals());
            assertEquals(until.samples() - from.samples(), read.totals().samples());
            assertTrue(read.totals().samples() > 0);
            double windowBytes = read.sites().stream().filter(s -> s.type().equals("long[]")).mapToDouble(s -> s.estimatedBytes()).sum();
            double otherBytes = read.sites().stream().filter(s -> !s.type().equals("long[]")).mapToDouble(s -> s.estimatedBytes()).sum();
            assertTrue(windowBytes > 0, "the window's allocations");
            assertTrue(otherBytes < windowBytes / 10, "hardly anything else (the JVM's own allocations meanwhile): " + otherBytes
                    + " beside " + windowBytes);
        } finally {
            agent.clear();
        }
    }

    private static void allocateBytes() {
        for (int i = 0; i < 100_000; i++) {
            sink = new byte[256];
        }
    }
}
