package io.heaptap.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.Markings;
import io.heaptap.profile.SamplingCost;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.format.RecordJson;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The raw dump the CLI decodes: its header's one codec (a golden file pins the format; neighbouring
 * versions read each other). A real capture read back through it: session's RawDumpCaptureTest.
 */
class RawDumpTest {
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

    private static String golden() {
        try (InputStream in = RawDumpTest.class.getResourceAsStream("dump-header.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException | NullPointerException e) {
            throw new AssertionError("dump-header.json is missing", e);
        }
    }
}
