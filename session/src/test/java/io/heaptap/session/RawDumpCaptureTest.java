package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.TargetInfo;
import io.heaptap.wire.DumpHeader;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.RawDump;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A real capture read back through the raw dump the CLI decodes is the profile the target decodes itself. */
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
            raw.write(RawDump.prefix(HEADER));
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

}
