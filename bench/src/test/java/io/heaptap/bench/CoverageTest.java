package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The coverage section's reading of a heaptap JSON profile and its counting, against figures worked by hand. */
class CoverageTest {
    private static final Pattern SITE = Pattern.compile("CoverageTarget\\.(keep\\w+)");

    /** A profile in the shape of docs/schema/profile.schema.json, with only the fields the section reads. */
    private static final String PROFILE = """
            {"schema": "heaptap-profile", "version": 1,
             "live": {"enabled": true, "keepProbability": 0.5, "thinnings": 1,
                      "hold": {"byteBudget": 4026531, "share": 0.015, "strict": true, "byteThinnings": 7, "byteThinnedEntries": 70,
                               "byteLevel": 65536, "oversize": 2, "releases": 3, "releasedEntries": 300}},
             "sites": [
               {"type": "byte[]", "estimatedBytes": 1050, "estimatedBytesLow": 1030, "estimatedBytesHigh": 1080,
                "stack": [{"class": "io.heaptap.bench.CoverageTarget", "method": "keep64"},
                                            {"class": "io.heaptap.bench.CoverageTarget", "method": "build"}],
                "live": {"tracked": 40, "proven": {"estimatedBytes": 1000, "estimatedBytesLow": 900, "estimatedBytesHigh": 1100}}},
               {"type": "byte[]", "stack": [{"class": "io.heaptap.bench.CoverageTarget", "method": "keep1m"}],
                "live": {"tracked": 3, "proven": {"estimatedBytes": 300, "estimatedBytesLow": 200, "estimatedBytesHigh": 420}}},
               {"type": "byte[]", "stack": [{"class": "io.heaptap.bench.CoverageTarget", "method": "keep1m"}, {"class": "X", "method": "y"}],
                "live": {"tracked": 4, "proven": {"estimatedBytes": 400, "estimatedBytesLow": 320, "estimatedBytesHigh": 490}}},
               {"type": "byte[]", "stack": [{"class": "io.heaptap.bench.CoverageTarget", "method": "keep16k"}],
                "live": {"tracked": 2, "unexamined": {"estimatedBytes": 5, "estimatedBytesLow": 1, "estimatedBytesHigh": 9}}},
               {"type": "byte[]", "stack": [{"class": "io.heaptap.bench.CoverageTarget", "method": "keep256k"}], "live": null},
               {"type": "byte[]", "stack": [{"class": "io.heaptap.bench.CoverageTarget", "method": "garbage"}],
                "live": {"tracked": 9, "proven": {"estimatedBytes": 7, "estimatedBytesLow": 6, "estimatedBytesHigh": 8}}}
             ]}
            """;

    @Test
    void readsEachSitesProvenLiveBytesAndInterval() {
        CoverageReading r = CoverageReading.parse(PROFILE, SITE);
        assertEquals(new CoverageReading.Estimate(1000, 900, 1100, 1), r.site("keep64"));
        // Two stacks of one site: estimates add, half-widths in quadrature: below hypot(100, 80) = 128.06, above hypot(120, 90) = 150.
        CoverageReading.Estimate oneMiB = r.site("keep1m");
        assertEquals(700, oneMiB.bytes());
        assertEquals(700 - Math.hypot(100, 80), oneMiB.low(), 1e-9);
        assertEquals(850, oneMiB.high(), 1e-9);
        assertEquals(2, oneMiB.stacks());
        // Not yet examined is no proof; a site without live figures, and garbage, are not read.
        assertEquals(CoverageReading.Estimate.NONE, r.site("keep16k"));
        assertEquals(CoverageReading.Estimate.NONE, r.site("keep256k"));
        assertEquals(2, r.sites().size(), r.sites().toString());
        // Allocated bytes are read for every site of the pattern, with or without live figures.
        assertEquals(new CoverageReading.Estimate(1050, 1030, 1080, 1), r.allocatedAt("keep64"));
        assertEquals(4, r.allocated().size(), r.allocated().toString());
        assertEquals(CoverageReading.Estimate.NONE, r.allocatedAt("build"));
    }

    @Test
    void readsWhatTheBoundDid() {
        CoverageReading.Hold hold = CoverageReading.parse(PROFILE, SITE).hold();
        assertEquals(new CoverageReading.Hold(0.5, 1, 7, 70, 65536, 2, 3, 300, 0.015, true, 4026531), hold);
        assertTrue(hold.thinned());
        assertFalse(CoverageReading.Hold.NONE.thinned());
        assertFalse(CoverageReading.parse("{\"sites\": []}", SITE).hold().thinned());
    }

    @Test
    void pairsTheTargetsTruthWithTheEstimates() {
        List<CoverageTally.SiteRun> runs = CoverageBench.siteRuns("built keep64=16:1024 keep16k=2:32768 keep1m=1:700",
                CoverageReading.parse(PROFILE, SITE));
        assertEquals(List.of("keep64", "keep16k", "keep1m"), runs.stream().map(CoverageTally.SiteRun::site).toList());
        assertEquals(List.of(1024L, 32768L, 700L), runs.stream().map(CoverageTally.SiteRun::truth).toList());
        assertEquals(List.of(true, false, true), runs.stream().map(CoverageTally.SiteRun::covered).toList());
        // keep64's allocated figure (1030-1080) lies above its truth (1024): the sampler's miss, told apart from the live one.
        assertEquals(List.of(false, false, false), runs.stream().map(CoverageTally.SiteRun::allocatedCovered).toList());
        assertEquals(1050.0 / 1024, runs.get(0).allocatedRatio(), 1e-12);
        assertEquals(1000.0 / 1024, runs.get(0).ratio(), 1e-12);
        assertEquals(200.0 / 1024, runs.get(0).relativeWidth(), 1e-12);
        assertEquals(0, runs.get(1).ratio());
    }

    @Test
    void theIntervalsEndsCount() {
        CoverageReading.Estimate e = new CoverageReading.Estimate(100, 90, 110, 1);
        assertTrue(e.covers(90));
        assertTrue(e.covers(110));
        assertFalse(e.covers(89.9));
        assertFalse(e.covers(110.1));
    }

    @Test
    void nineteenOfTwentyPassesEighteenFails() {
        assertEquals("pass", CoverageTally.verdict(runs(19, 1)));
        assertEquals("19/20 (95%)", CoverageTally.fraction(runs(19, 1)));
        assertEquals("**FAIL**", CoverageTally.verdict(runs(18, 2)));
        assertEquals("pass", CoverageTally.verdict(runs(38, 2)));
        assertEquals("**FAIL**", CoverageTally.verdict(runs(37, 3)));
        assertEquals("too few to judge", CoverageTally.verdict(runs(19, 0)));
    }

    private static List<CoverageTally.SiteRun> runs(int covered, int missed) {
        CoverageReading.Estimate e = new CoverageReading.Estimate(100, 90, 110, 1);
        List<CoverageTally.SiteRun> runs = new ArrayList<>(Collections.nCopies(covered,
                new CoverageTally.SiteRun("s", 100, e, e, CoverageReading.Hold.NONE)));
        runs.addAll(Collections.nCopies(missed, new CoverageTally.SiteRun("s", 200, e, e, CoverageReading.Hold.NONE)));
        return runs;
    }
}
