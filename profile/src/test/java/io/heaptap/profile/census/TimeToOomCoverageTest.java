package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * #36's goal "time to OOM on a steady leak: the true time inside the stated interval", measured against known
 * truth: the heap after each forced collection of a simulated watch is a steady leak on a stable set plus noise
 * shaped like real collections, and over 500 seeds per case the stated 95% interval must hold the true time (when
 * the true line reaches the maximum heap, from the last collection) in at least 93% of the watches that state one
 * (the others say "no trend", which states no time). A flat heap with the same noise must say "no trend" (a trend
 * claimed at most 5% of the time). Measured: 96.1-98.8% with independent noise, normal or skewed; trends on flat heaps
 * in 0.8-2%.
 */
class TimeToOomCoverageTest {
    static final long MB = 1L << 20;
    static final int RUNS = 500;
    static final long MAX = 4_096 * MB;
    static final double BASE = 1_024 * MB;

    /** What the heap after a collection carries besides the live set, as real collections show it. */
    enum Noise {
        /** Independent, normal: objects in flight at the collection (a few MiB). */
        NORMAL,
        /** Skewed: mostly little, sometimes a transient set held across the collection (a request burst, a batch). */
        SKEWED,
        /** Correlated from one collection to the next: a cache refilled over several collections, then replaced. */
        CACHE_CYCLE
    }

    /** The noise series for {@code n} collections (bytes), from {@code random}. */
    static double[] noise(Noise kind, int n, Random random) {
        double[] e = new double[n];
        switch (kind) {
            case NORMAL -> {
                for (int i = 0; i < n; i++) {
                    e[i] = random.nextGaussian() * 4 * MB;
                }
            }
            case SKEWED -> {
                for (int i = 0; i < n; i++) {
                    e[i] = random.nextGaussian() * 2 * MB + (random.nextDouble() < 0.2 ? -Math.log(random.nextDouble()) * 12 * MB : 0);
                }
            }
            case CACHE_CYCLE -> {
                // A cache that grows by a random step each collection and is replaced (emptied) at random, on average
                // every 4 collections, plus objects in flight.
                double cache = random.nextDouble() * 16 * MB;
                for (int i = 0; i < n; i++) {
                    cache = random.nextDouble() < 0.25 ? 0 : cache + random.nextDouble() * 8 * MB;
                    e[i] = cache + random.nextGaussian() * 2 * MB;
                }
            }
            default -> throw new AssertionError(kind);
        }
        return e;
    }

    /** A watch: {@code n} forced collections every {@code everyMillis}, the heap after each, with the leak {@code perMinute}. */
    static List<TimeToOom.Point> watch(Noise kind, int n, long everyMillis, double perMinute, Random random) {
        double[] e = noise(kind, n, random);
        List<TimeToOom.Point> points = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long at = (i + 1) * everyMillis;
            points.add(new TimeToOom.Point(at, Math.round(BASE + perMinute * at / 60_000.0 + e[i]), 0, false));
        }
        return points;
    }

    @ParameterizedTest
    @EnumSource(value = Noise.class, names = {"NORMAL", "SKEWED"})
    void theStatedIntervalHoldsTheTrueTimeOnASteadyLeak(Noise kind) {
        List<String> failures = coverageFailures(kind, 0.93, 1);
        assertTrue(failures.isEmpty(), failures::toString);
    }

    /**
     * The known limitation: a cache refilled over several collections and replaced at random looks like a leak over a
     * few collections, and 12 or 20 readings hold too little of it to estimate its correlation well. Held here as what a
     * user meets: of all such watches, those that state an interval missing the true time stay at most 11% (measured
     * 3.8-10.6%; a least-squares line stated a wrong one in 6.2-12.4%). Of the watches that state one, the
     * interval held the truth in 49-91% (docs/leaks.md).
     */
    @org.junit.jupiter.api.Test
    void aCacheCycleAcrossCollectionsIsAKnownLimitation() {
        List<String> failures = coverageFailures(Noise.CACHE_CYCLE, 0, 0.11);
        assertTrue(failures.isEmpty(), failures::toString);
    }

    /**
     * The runs' descriptions where the interval held the truth in fewer than {@code floor} of the watches that stated one,
     * or where more than {@code wrongCeiling} of all watches stated one that missed it.
     */
    private static List<String> coverageFailures(Noise kind, double floor, double wrongCeiling) {
        List<String> failures = new ArrayList<>();
        // The watch (2 minutes, every 10 s: 12 collections) and a longer one (5 minutes, every 15 s: 20), a leak of
        // 6 MiB and of 30 MiB a minute.
        for (int[] shape : new int[][] {{12, 10_000}, {20, 15_000}}) {
            for (double perMinute : new double[] {6 * MB, 30 * MB}) {
                Random random = new Random(36L * shape[0] + (long) perMinute + kind.ordinal());
                int covered = 0;
                int trends = 0;
                for (int run = 0; run < RUNS; run++) {
                    List<TimeToOom.Point> points = watch(kind, shape[0], shape[1], perMinute, random);
                    long last = points.get(points.size() - 1).atMillis();
                    double truthMillis = (MAX - (BASE + perMinute * last / 60_000.0)) / perMinute * 60_000;
                    TimeToOom t = TimeToOom.of(points, MAX, HeapReading.COLLECTOR, HeapSlack.NONE);
                    if (t.trend()) {
                        trends++;
                    }
                    if (t.trend() && t.millisLow() <= truthMillis && truthMillis <= t.millisHigh()) {
                        covered++;
                    }
                }
                String said = String.format(Locale.ROOT, "%s, %d collections every %d s, %.0f MiB/min: a trend in %d of %d runs, its"
                        + " interval holding the truth in %d (%.1f%%), missing it in %d (%.1f%% of all runs)", kind, shape[0], shape[1] / 1000,
                        perMinute / MB, trends, RUNS, covered, 100.0 * covered / Math.max(1, trends), trends - covered,
                        100.0 * (trends - covered) / RUNS);
                System.out.println("TimeToOomCoverageTest " + said);
                if (covered < floor * trends || trends - covered > wrongCeiling * RUNS) {
                    failures.add(said);
                }
            }
        }
        return failures;
    }

    /**
     * A stop-the-world collector's figure after a forced full collection also holds dead wood: garbage in regions it left
     * uncompacted because they were nearly all live, up to {@code MarkSweepDeadRatio} (5%) of them, and the more of it the
     * more the live set grew. The collection before an OutOfMemoryError frees it, so the true time is when the live set
     * alone reaches the maximum. Each simulated watch leaves its own share, 0-5% of the live set, with little other noise
     * (#36's scenario on G1: the figure rose 0.4-2.2% faster than the leak). Allowing for a 5% share, the interval holds
     * the truth in at least 93% of watches of each shape (measured: 99.6-100%); without the allowance, in half of them
     * (10-93% by shape, the fewer the longer the watch and the faster the leak).
     */
    @org.junit.jupiter.api.Test
    void theLatestTimeAllowsForTheDeadWoodAForcedCollectionLeaves() {
        List<String> failures = new ArrayList<>();
        int coveredWithout = 0;
        int trendsWithout = 0;
        for (int[] shape : new int[][] {{12, 10_000}, {20, 15_000}}) {
            for (double perMinute : new double[] {6 * MB, 30 * MB}) {
                Random random = new Random(5L * shape[0] + (long) perMinute);
                int[] covered = new int[2];
                int[] trends = new int[2];
                for (int run = 0; run < RUNS; run++) {
                    double share = random.nextDouble() * 0.05;
                    List<TimeToOom.Point> points = new ArrayList<>();
                    for (int i = 0; i < shape[0]; i++) {
                        long at = (i + 1L) * shape[1];
                        double live = BASE + perMinute * at / 60_000.0;
                        points.add(new TimeToOom.Point(at, Math.round(live * (1 + share) + random.nextGaussian() * MB / 2), 0, false));
                    }
                    long last = points.get(points.size() - 1).atMillis();
                    double truthMillis = (MAX - (BASE + perMinute * last / 60_000.0)) / perMinute * 60_000;
                    for (int allowed = 0; allowed < 2; allowed++) {
                        TimeToOom t = TimeToOom.of(points, MAX, HeapReading.COLLECTOR, allowed == 1 ? new HeapSlack(0.05, 0, 0) : HeapSlack.NONE);
                        trends[allowed] += t.trend() ? 1 : 0;
                        covered[allowed] += t.trend() && t.millisLow() <= truthMillis && truthMillis <= t.millisHigh() ? 1 : 0;
                    }
                }
                String said = String.format(Locale.ROOT, "dead wood, %d collections every %d s, %.0f MiB/min: the interval held the truth in"
                        + " %d of %d watches with the allowance, %d of %d without", shape[0], shape[1] / 1000, perMinute / MB, covered[1],
                        trends[1], covered[0], trends[0]);
                System.out.println("TimeToOomCoverageTest " + said);
                if (covered[1] < 0.93 * trends[1]) {
                    failures.add(said);
                }
                coveredWithout += covered[0];
                trendsWithout += trends[0];
            }
        }
        assertTrue(failures.isEmpty(), failures::toString);
        assertTrue(coveredWithout < 0.8 * trendsWithout, "without the allowance the interval misses often: it held the truth in "
                + coveredWithout + " of " + trendsWithout);
    }

    @ParameterizedTest
    @EnumSource(value = Noise.class, names = {"NORMAL", "SKEWED"})
    void aFlatHeapWithTheSameNoiseHasNoTrend(Noise kind) {
        List<String> failures = falseTrends(kind, 0.05);
        assertTrue(failures.isEmpty(), failures::toString);
    }

    @org.junit.jupiter.api.Test
    void aFlatHeapWithACacheCycleClaimsATrendRarely() {
        List<String> failures = falseTrends(Noise.CACHE_CYCLE, 0.12);
        assertTrue(failures.isEmpty(), failures::toString);
    }

    private static List<String> falseTrends(Noise kind, double ceiling) {
        List<String> failures = new ArrayList<>();
        for (int[] shape : new int[][] {{12, 10_000}, {20, 15_000}}) {
            Random random = new Random(7L * shape[0] + kind.ordinal());
            int trends = 0;
            for (int run = 0; run < RUNS; run++) {
                if (TimeToOom.of(watch(kind, shape[0], shape[1], 0, random), MAX, HeapReading.COLLECTOR, HeapSlack.NONE).trend()) {
                    trends++;
                }
            }
            String said = String.format(Locale.ROOT, "%s, %d collections, no leak: a trend claimed in %d of %d runs", kind, shape[0], trends, RUNS);
            System.out.println("TimeToOomCoverageTest " + said);
            if (trends > ceiling * RUNS) {
                failures.add(said);
            }
        }
        return failures;
    }
}
