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
    void withoutAWholeHeapMarkingNothingIsALeakOrACacheAndTheReasonSaysWhatToDo() {
        // A multi-GiB G1 heap with young collections only: replaced caches and old garbage stay
        // referenced, and their unexamined bytes grow like a leak's.
        List<LeakEvidence> assessed = new java.util.ArrayList<>();
        for (SiteSeries s : List.of(Synthetic.leak(new Random(1), POINTS, MB, 2), Synthetic.cache(new Random(2), POINTS, 20 * MB, 3_000, 2),
                Synthetic.kept(POINTS, 50 * MB, 2_000))) {
            LeakEvidence e = LeakClassifier.assess(Synthetic.withoutMarkings(s));
            assertEquals(Verdict.UNDECIDED, e.verdict(), e.toString());
            assertEquals(0, e.confidence());
            assertTrue(e.reason().contains("no whole-heap marking") && e.reason().contains("--gc"), e.reason());
            assessed.add(e);
        }
        // Ranked by unproven evidence: the leak's tracked bytes keep rising, the cache's and the kept set's do not.
        LeakEvidence leak = assessed.get(0);
        assertTrue(leak.score() > 10 * Math.max(assessed.get(1).score(), assessed.get(2).score()), assessed.toString());
        assertTrue(leak.reason().contains("Ranked by unproven evidence"), leak.reason());
    }

    @Test
    void withoutAMarkingARisingSiteRanksAboveTheGarbage() {
        Random random = new Random(5);
        List<SiteSeries> sites = new java.util.ArrayList<>();
        for (int i = 0; i < 25; i++) {
            sites.add(Synthetic.garbage(random, POINTS, 100 * MB));
        }
        sites.add(Synthetic.withoutMarkings(Synthetic.cache(random, POINTS, 20 * MB, 3_000, 2)));
        sites.add(Synthetic.withoutMarkings(Synthetic.leak(random, POINTS, MB, 2)));
        LeakReport report = LeakReport.of(LeakHistoryTest.WATCH, sites);
        LeakReport.RankedSite first = report.sites().get(0);
        assertEquals(Verdict.UNDECIDED, first.evidence().verdict());
        assertTrue(first.evidence().site().allocatedAt().contains("leak"), () -> report.top(3).toString());
        assertEquals(Verdict.TRANSIENT, report.sites().get(2).evidence().verdict(), "the garbage after the undecided sites");
    }

    @Test
    void oneMarkingProvesWhatIsLiveButNotThatItGrows() {
        SiteSeries leak = Synthetic.leak(new Random(3), POINTS, MB, 2);
        SiteSeries one = new SiteSeries(leak.key(), 0, 0, 0, 120);
        for (SitePoint p : leak.points()) {
            one.add(new SitePoint(p.atMillis(), p.tracked(), p.provenTracked(), p.liveObjects(), p.liveBytes(), p.liveBytesVariance(), 0,
                    p.medianAgeMillis(), p.maxAgeMillis(), p.medianGcs(), p.allocatedObjects(), p.allocatedBytes(), p.gcCount(), 1, 30_000));
        }
        LeakEvidence e = LeakClassifier.assess(one);
        assertEquals(Verdict.UNDECIDED, e.verdict(), e.toString());
        assertTrue(e.reason().contains("one whole-heap marking"), e.reason());
    }

    @Test
    void growthWithinTheNoiseIsNotALeak() {
        // A flat 2 MiB set estimated from about four samples: the points jump around, the intervals overlap.
        for (int seed = 0; seed < SEEDS; seed++) {
            Random random = new Random(seed);
            SiteSeries s = new SiteSeries(Synthetic.key("flat"), 0, 0, 0, 120);
            for (int i = 1; i <= POINTS; i++) {
                long at = i * Synthetic.EVERY;
                double live = 2 * MB;
                s.add(new SitePoint(at, 4, 4, 2000, Synthetic.noisy(random, live, 4), Synthetic.variance(live, 4), 0, at / 2, at, 3,
                        i == 1 ? 2000 : 0, i == 1 ? live : 0, i * 10L, i, 50));
            }
            LeakEvidence e = LeakClassifier.assess(s);
            assertTrue(e.verdict() != Verdict.LEAK_SUSPECT, "seed " + seed + ": " + e);
        }
    }

    /**
     * G1's own cycles on a small heap: a marking every 3-9 s, a snapshot every 5 s, so some snapshots
     * repeat the last proof. The leak of the LeaksIT target (1 MiB/s, 20 s, 64 KiB: 16 samples per MiB)
     * was called stable in 37% of these series while each repeated snapshot counted as a point of its own.
     */
    @Test
    void aLeakProvenOnlyByTheCollectorsOwnCyclesIsALeakSuspect() {
        int runs = 2_000;
        int missedAt64k = 0;
        int missedAt512k = 0;
        double slopes = 0;
        for (int seed = 0; seed < runs; seed++) {
            LeakEvidence e = LeakClassifier.assess(Synthetic.provenByOwnCycles(new Random(seed), 4, 0, MB, 16, 6_000));
            missedAt64k += e.verdict() == Verdict.LEAK_SUSPECT ? 0 : 1;
            slopes += e.bytesPerMinute() / MB;
            LeakEvidence sparse = LeakClassifier.assess(Synthetic.provenByOwnCycles(new Random(seed), 4, 0, MB, 2, 6_000));
            missedAt512k += sparse.verdict() == Verdict.LEAK_SUSPECT ? 0 : 1;
        }
        // Measured: 0 and 58 of 2,000 (748 and 861 before).
        assertTrue(missedAt64k <= runs / 200, missedAt64k + " missed at 64 KiB");
        // Placed at what its proof covers, the slope is the leak's rate however far the proofs lag:
        // 59.8 MiB/min on average (57.3 at the snapshots' times).
        assertEquals(60, slopes / runs, 1.5);
        assertTrue(missedAt512k <= runs / 20, missedAt512k + " missed at 512 KiB");
    }

    /**
     * A fresh capture's first G1 cycles are counted as markings before they prove anything (their proof
     * needs the pause three back): those snapshots' zeros are no proven points. Counted as such, the
     * leak below read as a flat series with one late rise, "stable" (LeaksIT on JDK 25 in CI).
     */
    @Test
    void aMarkingThatProvesNothingYetGivesNoPoint() {
        SiteSeries leak = Synthetic.leak(new Random(5), POINTS, MB, 16);
        SiteSeries late = new SiteSeries(leak.key(), 0, 0, 0, 120);
        for (SitePoint p : leak.points()) {
            boolean proofYet = p.atMillis() > 3 * Synthetic.EVERY;
            late.add(new SitePoint(p.atMillis(), p.tracked(), proofYet ? p.provenTracked() : 0, proofYet ? p.liveObjects() : 0,
                    proofYet ? p.liveBytes() : 0, proofYet ? p.liveBytesVariance() : 0, proofYet ? 0 : p.liveBytes(),
                    p.medianAgeMillis(), p.maxAgeMillis(), p.medianGcs(), p.allocatedObjects(), p.allocatedBytes(), p.gcCount(),
                    p.markings(), proofYet ? p.horizonMillis() : -1));
        }
        LeakEvidence e = LeakClassifier.assess(late);
        assertEquals(Verdict.LEAK_SUSPECT, e.verdict(), e.toString());
        assertEquals(POINTS - 3, e.provenPoints(), e.toString());
        assertEquals(60, e.bytesPerMinute() / MB, 10, e.toString());
    }

    /** The other side of the same rules: a set that does not grow, proven the same way, is rarely called a leak. */
    @Test
    void aKeptSetProvenOnlyByTheCollectorsOwnCyclesIsRarelyALeak() {
        int runs = 2_000;
        for (int points : new int[] {4, 6, 12}) {
            int falseAlarms = 0;
            for (int seed = 0; seed < runs; seed++) {
                LeakEvidence e = LeakClassifier.assess(Synthetic.provenByOwnCycles(new Random(seed), points, 50 * MB, 0, 2, 6_000));
                falseAlarms += e.verdict() == Verdict.LEAK_SUSPECT ? 1 : 0;
            }
            // Measured: 10, 17 and 6 of 2,000 (0.5%, 0.9%, 0.3%).
            assertTrue(falseAlarms <= runs * 3 / 200, falseAlarms + " false alarms with " + points + " snapshots");
        }
    }

    @Test
    void aSiteWithNothingLiveIsTransient() {
        SiteSeries s = new SiteSeries(Synthetic.key("gone"), 0, 0, 0, 120);
        for (int i = 1; i <= POINTS; i++) {
            s.add(new SitePoint(i * Synthetic.EVERY, i == 1 ? 20 : 0, 0, 0, 0, 0, i == 1 ? 20_000 : 0, 0, 0, 0, 100, 10_000, i * 10L, 0, -1));
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
        SiteSeries out = new SiteSeries(s.key(), s.windowStartMillis(), s.gcCountAtStart(), s.markingsAtStart(), 120);
        int bad = 1 + random.nextInt(s.points().size() - 1);
        for (int i = 0; i < s.points().size(); i++) {
            SitePoint p = s.points().get(i);
            double factor = i == bad ? (random.nextBoolean() ? 3 : 1 / 3.0) : 1;
            out.add(new SitePoint(p.atMillis(), p.tracked(), p.provenTracked(), p.liveObjects(), p.liveBytes() * factor,
                    p.liveBytesVariance() * factor * factor, p.unexaminedBytes(), p.medianAgeMillis(), p.maxAgeMillis(), p.medianGcs(),
                    p.allocatedObjects(), p.allocatedBytes(), p.gcCount(), p.markings(), p.horizonMillis()));
        }
        return out;
    }
}
