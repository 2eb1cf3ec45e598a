package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.LiveProof;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.NativeSnapshot;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.SamplingCost;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.Markings;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.format.RecordJson;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The raw dump the CLI decodes: its header's one codec (a golden file pins the format; neighbouring
 * versions read each other) and a real capture read back through it.
 */
class RawDumpTest {
    static volatile Object sink;

    static final DumpHeader HEADER = new DumpHeader(new TargetInfo(4242, "17.0.15", "OpenJDK 64-Bit Server VM", "app.Main --port 8080"),
            Instant.parse("2026-11-22T10:51:08.857304888Z"), 5_200_000_000L,
            List.of("JDK 17's heap sampler is biased per site"),
            new GcCost("G1", new HeapSizing(100L << 20, 48L << 20, 64L << 20, 256L << 20), 5_200_000_000L,
                    List.of(new CollectorCost("G1 Young Generation", CollectorCost.Kind.PAUSES, 12, 48),
                            new CollectorCost("G1 Concurrent GC", CollectorCost.Kind.CYCLE_PAUSES, 1, 3)),
                    new HeapAroundGc(12, 52L << 20, 38L << 20, 41L << 20),
                    new GcCpu(true, null, 419_000_000L, 15_800_000_000L, 6, List.of("G1 Conc#", "GC Thread#"), null)),
            new LiveProof(123_456_789_000L, new Markings(3, 2, 1, Instant.parse("2026-11-22T10:51:12.5Z"), "", 60_000), true, false,
                    48L << 20, 256L << 20),
            new IntervalRange(32 * 1024, 2 << 20, 5_000), new SamplingCost(26_000, 118_000_000L, 15_800_000_000L, 0.0075));

    @Test
    void theHeaderReadsBackExactlyAndMatchesTheGoldenFile() throws IOException {
        String json = RecordJson.write(HEADER);
        assertEquals(golden(), json, "the header's JSON changed: if on purpose, update dump-header.json");
        assertEquals(HEADER, RecordJson.read(golden(), DumpHeader.class));
    }

    @Test
    void aFieldAddedOrMissingOnEitherSideIsNoError() {
        String newer = golden().replace("\"proof\":", "\"aNewerField\":7,\"proof\":");
        assertEquals(HEADER, RecordJson.read(newer, DumpHeader.class), "an unknown field is ignored");
        String older = golden().replace(",\"warnings\":[\"JDK 17's heap sampler is biased per site\"]", "");
        assertEquals(List.of(), RecordJson.read(older, DumpHeader.class).warnings(), "a missing one is empty");
        String beforeCost = golden().replaceAll(",\"cost\":\\{[^}]*\\}", "");
        assertNotEquals(golden(), beforeCost);
        assertNull(RecordJson.read(beforeCost, DumpHeader.class).cost(), "a target from before the sampling cost was measured");
    }

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

    private static String golden() {
        try (InputStream in = RawDumpTest.class.getResourceAsStream("dump-header.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException | NullPointerException e) {
            throw new AssertionError("dump-header.json is missing", e);
        }
    }
}
