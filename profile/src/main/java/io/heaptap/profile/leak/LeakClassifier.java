package io.heaptap.profile.leak;

import io.heaptap.profile.HumanUnits;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Gives one site's series a verdict. The rules, in order (the README's "Leaks" section):
 * <ol>
 * <li><b>transient</b>: nothing of it is live now, or, with at least one collection in the window,
 * most of its live objects have survived none (the median over the last third of the snapshots)
 * and less than half of what it allocated is live;</li>
 * <li>live bytes <b>grow</b> (Mann–Kendall at least {@value #RISING} sure and the Theil–Sen growth
 * over the window at least {@value #GROWTH} of the level, or {@value #RISING_STRONG} sure and
 * {@value #GROWTH_STRONG}) and the oldest object is at least {@value #COVERAGE} of the window old:
 * <b>leak suspect</b>;</li>
 * <li>the oldest object is younger than {@value #COVERAGE} of the window (ages reset): <b>cache-like</b>;</li>
 * <li>otherwise (held, not growing): <b>stable</b>.</li>
 * </ol>
 * Age against the window is what tells a leak from a cache of the same size: a leak's oldest
 * object is as old as the watch, a cache's oldest is as old as its refresh period.
 */
public final class LeakClassifier {
    static final double RISING = 0.95;
    static final double GROWTH = 0.10;
    /** Strong growth needs less certainty: few samples make a real leak's series noisy. */
    static final double RISING_STRONG = 0.90;
    static final double GROWTH_STRONG = 0.50;
    static final double COVERAGE = 0.5;
    static final double RETAINED = 0.5;
    /** Snapshots for full confidence, and tracked objects. */
    static final int FULL_POINTS = 6;
    static final int FULL_TRACKED = 10;

    private LeakClassifier() {
    }

    public static LeakEvidence assess(SiteSeries series) {
        List<SitePoint> points = series.points();
        int n = points.size();
        SitePoint last = points.get(n - 1);
        long[] t = new long[n];
        double[] bytes = new double[n];
        double[] objects = new double[n];
        double[] gcsSurvived = new double[n];
        double allocated = 0;
        long maxTracked = 0;
        for (int i = 0; i < n; i++) {
            SitePoint p = points.get(i);
            t[i] = p.atMillis();
            bytes[i] = p.liveBytes();
            objects[i] = p.liveObjects();
            gcsSurvived[i] = p.medianGcs();
            allocated += p.allocatedBytes();
            maxTracked = Math.max(maxTracked, p.tracked());
        }
        Trend byteTrend = Trend.of(t, bytes);
        Trend objectTrend = Trend.of(t, objects);
        long window = Math.max(1, last.atMillis() - series.windowStartMillis());
        long span = last.atMillis() - points.get(0).atMillis();
        double level = recentLevel(bytes);
        double growth = level > 0 ? byteTrend.slopePerMinute() * (span / 60_000.0) / level : 0;
        double coverage = (double) last.maxAgeMillis() / window;
        double retained = allocated > 0 ? last.liveBytes() / allocated : last.liveBytes() > 0 ? 1 : 0;
        long gcs = last.gcCount() - series.gcCountAtStart();
        double rising = byteTrend.risingProbability();
        boolean growing = rising >= RISING && growth >= GROWTH || rising >= RISING_STRONG && growth >= GROWTH_STRONG;
        boolean young = recentLevel(gcsSurvived) < 1;

        Verdict verdict;
        double support;
        String why;
        if (last.tracked() == 0) {
            verdict = Verdict.TRANSIENT;
            support = gcs > 0 ? support(gcs, 0.5, 3) : 0.5;
            why = "nothing of it is live now";
        } else if (gcs > 0 && young && retained < RETAINED) {
            verdict = Verdict.TRANSIENT;
            support = Math.min(support(retained, RETAINED, 0.05), support(gcs, 0.5, 3));
            why = String.format(Locale.ROOT, "dies young: median age %s, most live objects survived no collection (of %d), %s live of %s allocated",
                    age(last.medianAgeMillis()), gcs, percent(retained), HumanUnits.formatBytes(allocated));
        } else if (growing && coverage >= COVERAGE) {
            verdict = Verdict.LEAK_SUSPECT;
            support = Math.min(support(rising, RISING_STRONG, 0.999),
                    Math.min(support(growth, GROWTH, 0.5), support(coverage, COVERAGE, 0.9)));
            why = String.format(Locale.ROOT, "live bytes grow %s/min (%s over %s), the oldest object is %s old (%s of the time watched)",
                    HumanUnits.formatBytes(byteTrend.slopePerMinute()), percent(growth), age(span), age(last.maxAgeMillis()),
                    percent(coverage));
        } else if (coverage < COVERAGE) {
            verdict = Verdict.CACHE_LIKE;
            support = support(coverage, COVERAGE, 0.2);
            why = String.format(Locale.ROOT, "ages reset: the oldest object is %s old after %s watched (%s), median age %s%s",
                    age(last.maxAgeMillis()), age(window), percent(coverage), age(last.medianAgeMillis()),
                    growing ? String.format(Locale.ROOT, "; live bytes grow %s/min", HumanUnits.formatBytes(byteTrend.slopePerMinute()))
                            : "; live bytes steady");
        } else {
            verdict = Verdict.STABLE;
            support = Math.min(support(coverage, COVERAGE, 0.9), Math.max(support(growth, GROWTH, 0.02),
                    support(rising, RISING, 0.75)));
            why = String.format(Locale.ROOT, "held and not growing (%s over %s), the oldest object is %s old (%s of the time watched)",
                    percent(growth), age(span), age(last.maxAgeMillis()), percent(coverage));
        }
        double confidence = support * Math.min(1, (n - 1.0) / (FULL_POINTS - 1)) * Math.min(1, (double) maxTracked / FULL_TRACKED);
        if (gcs == 0) {
            confidence *= 0.5;
            why += "; no collection in the window yet, so garbage cannot be told from kept objects";
        }
        double score = Math.max(0, byteTrend.slopePerMinute()) * byteTrend.risingProbability() * Math.min(1, coverage);
        return new LeakEvidence(series.key(), verdict, confidence, score, n, window, last.tracked(), last.liveBytes(),
                last.liveObjects(), byteTrend.slopePerMinute(), objectTrend.slopePerMinute(), growth,
                byteTrend.risingProbability(), last.medianAgeMillis(), last.maxAgeMillis(), coverage, last.medianGcs(), gcs,
                allocated, retained, why);
    }

    /** The median of the last third of the points: the level growth is measured against, and the recent median GCs. */
    static double recentLevel(double[] values) {
        int k = Math.max(1, (values.length + 2) / 3);
        double[] tail = Arrays.copyOfRange(values, values.length - k, values.length);
        Arrays.sort(tail);
        return k % 2 == 1 ? tail[k / 2] : (tail[k / 2 - 1] + tail[k / 2]) / 2;
    }

    /**
     * How well {@code x} supports a verdict: 0.5 at the threshold, rising linearly to 1 at the
     * value where the case is clear (which may lie below the threshold, for "less than" rules).
     */
    static double support(double x, double threshold, double clear) {
        double r = (x - threshold) / (clear - threshold);
        return 0.5 + 0.5 * Math.max(0, Math.min(1, r));
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    private static String age(long millis) {
        return HumanUnits.formatDuration(Duration.ofMillis(Math.max(0, millis)));
    }
}
