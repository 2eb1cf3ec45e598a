package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.JsonSchemaCheck;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassCount;
import io.heaptap.profile.census.DumpCensus;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The profile JSON against docs/schema/profile.schema.json, both ways (the schema is hand-kept for readers). */
class ProfileSchemaTest {

    @Test
    void theJsonWriterEmitsExactlyTheDocumentedFields() throws Exception {
        GcCost busy = WritersTest.BUSY_GC;
        GcCost withNote = new GcCost(busy.collector(), busy.heap(), busy.windowNanos(), busy.collectors(), busy.heapAround(),
                new GcCpu(true, null, 1_000_000, 2_000_000, 1, List.of("GC Thread#"), "a note"));
        JsonSchemaCheck.of("profile.schema.json")
                .check(json(WritersTest.profile()))
                .check(json(WritersTest.profile(withNote)))
                .check(json(WritersTest.profile(GcCost.unknown("no MXBean"))))
                .check(json(withImpossibleFigures(WritersTest.profile())))
                .check(json(LetGoViewsTest.withEmptiedSite(WritersTest.profile())))
                .check(json(WritersTest.profile().withCensus(DumpCensus.of(census()))))
                .check(json(WritersTest.profile().withCensus(DumpCensus.refused("the JVM refused it"))))
                .assertAllSeen();
    }

    /** The same profile with 1 KiB of heap in use: its live estimate is above it, so impossibleFigures lists it. */
    private static AllocationProfile withImpossibleFigures(AllocationProfile p) {
        LiveInfo l = p.liveInfo();
        LiveInfo tiny = new LiveInfo(l.enabled(), l.budget(), l.tracked(), l.keepProbability(), l.admitted(), l.skipped(),
                l.thinnings(), l.thinnedEntries(), l.died(), l.weakRefs(), l.gcCount(), l.filter(), l.gcForced(),
                l.markings(), 1024, l.heapMaxBytes());
        return new AllocationProfile(p.info(), tiny, p.sites());
    }

    private static ClassCensus census() {
        return new ClassCensus(0, 3 << 20, 64 << 20, 12, List.of(new ClassCount("byte[]", 10, 2 << 20)),
                new ClassCount("9 other classes", 100, 1 << 20), 9, 110, 3 << 20);
    }

    private static String json(AllocationProfile profile) {
        return new String(ProfileWriter.toBytes(profile, ProfileFormat.JSON), StandardCharsets.UTF_8);
    }
}
