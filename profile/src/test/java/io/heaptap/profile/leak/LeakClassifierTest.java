package io.heaptap.profile.leak;

import static io.heaptap.profile.leak.Synthetic.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The classifier on series of known kind, with noise; 200 seeds each, every one must come out right. */
class LeakClassifierTest {
    static final int SEEDS = 200;
    static final int POINTS = 12;  // 60 s at one snapshot every 5 s

    @Test
    void aSlowLeakIsALeakSuspect() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed);
            // 1 MB/s at the 512 KiB interval: about 2 samples per MB.
            LeakEvidence e = LeakClassifier.assess(Synthetic.leak(random, POINTS, MB, 2));
            assertEquals(Verdict.LEAK_SUSPECT, e.verdict(), "seed " + seed + ": " + e);
            assertTrue(e.confidence() > 0.7, "seed " + seed + ": " + e);
            assertEquals(60, e.bytesPerMinute() / MB, 15, "seed " + seed + ": " + e);
        }
    }

    @Test
    void aCacheReplacedEveryFewSecondsIsCacheLike() {
        for (int seed = 0; seed < SEEDS; seed++) {
            LeakEvidence e = LeakClassifier.assess(Synthetic.cache(new Random(seed), POINTS, 20 * MB, 3_000, 2));
            assertEquals(Verdict.CACHE_LIKE, e.verdict(), "seed " + seed + ": " + e);
            assertTrue(e.confidence() > 0.7, "seed " + seed + ": " + e);
        }
    }

    @Test
    void aSetBuiltOnceAndKeptIsStable() {
        for (int built = 1_000; built < 30_000; built += 700) {
            LeakEvidence e = LeakClassifier.assess(Synthetic.kept(POINTS, 50 * MB, built));
            assertEquals(Verdict.STABLE, e.verdict(), "built at " + built + ": " + e);
            assertEquals(0, e.bytesPerMinute(), 1e-9);
        }
    }

    @Test
    void shortLivedGarbageIsTransient() {
        for (int seed = 0; seed < SEEDS; seed++) {
            LeakEvidence e = LeakClassifier.assess(Synthetic.garbage(new Random(seed), POINTS, 500 * MB));
            assertEquals(Verdict.TRANSIENT, e.verdict(), "seed " + seed + ": " + e);
            assertTrue(e.confidence() > 0.7, "seed " + seed + ": " + e);
        }
    }

    @Test
    void aLeakIsFoundWithFewSamplesAndOutliers() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed);
            SiteSeries noisy = Synthetic.leak(random, POINTS, MB, 0.5);
            LeakEvidence e = LeakClassifier.assess(withOutlier(noisy, random));
            assertEquals(Verdict.LEAK_SUSPECT, e.verdict(), "seed " + seed + ": " + e);
        }
    }

    @Test
    void fewSnapshotsGiveLowConfidence() {
        LeakEvidence e = LeakClassifier.assess(Synthetic.leak(new Random(1), 2, MB, 2));
        assertTrue(e.confidence() <= 0.2, e.toString());
        LeakEvidence one = LeakClassifier.assess(Synthetic.cache(new Random(1), 1, 20 * MB, 3_000, 2));
        assertEquals(0, one.confidence());
    }

    @Test
    void withoutACollectionConfidenceIsHalvedAndSaysWhy() {
        SiteSeries s = new SiteSeries(Synthetic.key("quiet"), 0, 0, 120);
        for (int i = 1; i <= POINTS; i++) {
            long at = i * Synthetic.EVERY;
            s.add(new SitePoint(at, 100, 1000, 10 * MB, at - 2_000, at - 1_000, 0, 0, 0, 0));
        }
        LeakEvidence e = LeakClassifier.assess(s);
        assertEquals(Verdict.STABLE, e.verdict());
        assertTrue(e.confidence() <= 0.5, e.toString());
        assertTrue(e.reason().contains("no collection"), e.reason());
    }

    @Test
    void aSiteWithNothingLiveIsTransient() {
        SiteSeries s = new SiteSeries(Synthetic.key("gone"), 0, 0, 120);
        for (int i = 1; i <= POINTS; i++) {
            s.add(new SitePoint(i * Synthetic.EVERY, i == 1 ? 20 : 0, 20, i == 1 ? 20_000 : 0, 0, 0, 0, 100, 10_000, i * 10L));
        }
        LeakEvidence e = LeakClassifier.assess(s);
        assertEquals(Verdict.TRANSIENT, e.verdict());
        assertTrue(e.confidence() > 0.9, e.toString());
    }

    @Test
    void theRankingPutsTheLeakFirst() {
        Random random = new Random(7);
        LeakReport report = LeakReport.of(LeakHistoryTest.WATCH, List.of(Synthetic.cache(random, POINTS, 80 * MB, 3_000, 2),
                Synthetic.kept(POINTS, 100 * MB, 2_000), Synthetic.garbage(random, POINTS, 500 * MB),
                Synthetic.leak(random, POINTS, MB, 2)));
        assertEquals("leak", report.sites().get(0).evidence().site().stack().get(0).methodName());
        assertEquals(1, report.suspects());
        assertEquals(1, report.sites().get(0).rank());
    }

    /** One snapshot's estimate off by a factor of three, as when a thinning hit the site hard. */
    private static SiteSeries withOutlier(SiteSeries s, Random random) {
        SiteSeries out = new SiteSeries(s.key(), s.windowStartMillis(), s.gcCountAtStart(), 120);
        int bad = 1 + random.nextInt(s.points().size() - 1);
        for (int i = 0; i < s.points().size(); i++) {
            SitePoint p = s.points().get(i);
            double factor = i == bad ? (random.nextBoolean() ? 3 : 1 / 3.0) : 1;
            out.add(new SitePoint(p.atMillis(), p.tracked(), p.liveObjects(), p.liveBytes() * factor, p.medianAgeMillis(),
                    p.maxAgeMillis(), p.medianGcs(), p.allocatedObjects(), p.allocatedBytes(), p.gcCount()));
        }
        return out;
    }
}
