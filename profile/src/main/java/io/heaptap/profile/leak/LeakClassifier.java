package io.heaptap.profile.leak;

import io.heaptap.profile.Estimate;
import io.heaptap.profile.HumanUnits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Gives one site's series a verdict. Only a whole-heap marking proves an object live (a young
 * collection says nothing about the old generation), so every verdict that says something is
 * kept rests on the <b>proven</b> live series: one point per proof by a marking in the site's window (the
 * last snapshot that read it), placed at the moment the proof covers. The rules, in order (docs/leaks.md):
 * <ol>
 * <li><b>transient</b>: nothing of it is live now (a cleared weak reference proves death, whatever
 * collection cleared it); or, after a marking, what it keeps across the marking is less than
 * {@value #TRANSIENT_SECONDS} s of its allocation, and either its tracked objects survived no
 * collection or the proof is at most {@value #TRANSIENT_SECONDS} s old (a forced collection); otherwise
 * it may be a cache replaced faster than markings come: undecided;</li>
 * <li><b>undecided</b>: fewer than two markings in its window: kept objects cannot be told from
 * garbage, nor growth measured; the reason says how to get proof;</li>
 * <li>proven live bytes <b>grow</b> (the Theil–Sen rise over the proven points exceeds 1.96 standard
 * errors of the first and last estimates combined, 2.58 below {@value #TREND_TESTED_FROM} points; the growth is at least
 * {@value #GROWTH} of the level; and from {@value #TREND_TESTED_FROM} proven points on, Mann–Kendall is at least
 * {@value #RISING_STRONG} sure) and the oldest proven object
 * is at least {@value #COVERAGE} of the window old: <b>leak suspect</b>;</li>
 * <li>the oldest proven object is younger than {@value #COVERAGE} of the window (ages reset): <b>cache-like</b>;</li>
 * <li>otherwise (held, not growing): <b>stable</b>.</li>
 * </ol>
 * Age against the window is what tells a leak from a cache of the same size: a leak's oldest
 * object is as old as the watch, a cache's oldest is as old as its refresh period.
 */
public final class LeakClassifier {
    static final double GROWTH = 0.10;
    static final double RISING_STRONG = 0.90;
    /** Proven points from which Mann-Kendall must agree; with four its best is 95.5%, so one noisy pair vetoed a leak. */
    static final int TREND_TESTED_FROM = 5;
    /**
     * With fewer points the ends' separation stands alone, at 99.5% one-sided instead of 97.5%: about the
     * false alarms on a flat set that both tests together allow (measured on synthetic series, 0.5-0.9%).
     */
    static final double Z_ALONE = 2.5758293035489;
    static final double COVERAGE = 0.5;
    static final double TRANSIENT_SECONDS = 1.0;
    /**
     * Proofs closer than this are one proof read twice: a snapshot's moment and its proof's age are read a
     * little apart, so one proof's moment jitters by milliseconds. Distinct proofs are a second or more
     * apart (snapshots are, and forced collections come with them).
     */
    static final long SAME_PROOF_MILLIS = 500;
    /** Proven points for full confidence, and tracked objects. */
    static final int FULL_POINTS = 6;
    static final int FULL_TRACKED = 10;

    private LeakClassifier() {
    }

    public static LeakEvidence assess(SiteSeries series) {
        List<SitePoint> points = series.points();
        int n = points.size();
        SitePoint last = points.get(n - 1);
        List<SitePoint> proven = new ArrayList<>();
        double allocated = 0;
        for (SitePoint p : points) {
            allocated += p.allocatedBytes();
            // A marking counted before any proof (G1's cycles prove what preceded the pause three back, and a
            // fresh capture has seen none) proves nothing: its zeros are no point of the series.
            if (p.markings() > series.markingsAtStart() && p.horizonMillis() >= 0) {
                // Snapshots between the same two markings read one proof again: the same objects, a few
                // fewer as young ones among them die. Counted apart they add ties and small falls that say
                // nothing, and Mann-Kendall read a leak proven by G1's own cycles as flat. One point per
                // proof, the latest reading.
                if (!proven.isEmpty() && proofAt(p) - proofAt(proven.get(proven.size() - 1)) < SAME_PROOF_MILLIS) {
                    proven.remove(proven.size() - 1);
                }
                proven.add(p);
            }
        }
        int k = proven.size();
        // Whether what is tracked of it dies at the first young collection (the recent median of GCs survived).
        // Or nothing older than a fresh proof survives (a forced collection just before the snapshot).
        boolean diesYoung = recentLevel(points.stream().mapToDouble(SitePoint::medianGcs).toArray()) < 1
                || last.horizonMillis() >= 0 && last.horizonMillis() <= TRANSIENT_SECONDS * 1000;
        long[] t = new long[k];
        double[] bytes = new double[k];
        double[] objects = new double[k];
        long maxTracked = 0;
        for (int i = 0; i < k; i++) {
            SitePoint p = proven.get(i);
            // At the moment its proof covers, not when it was read: a proof lags its snapshot by up to a
            // cycle, and by a varying amount, which would bend the slope.
            t[i] = proofAt(p);
            bytes[i] = p.liveBytes();
            objects[i] = p.liveObjects();
            maxTracked = Math.max(maxTracked, p.provenTracked());
        }
        Trend byteTrend = Trend.of(t, bytes);
        Trend objectTrend = Trend.of(t, objects);
        long window = Math.max(1, last.atMillis() - series.windowStartMillis());
        long span = k < 2 ? 0 : t[k - 1] - t[0];
        double level = k == 0 ? 0 : recentLevel(bytes);
        double growth = level > 0 ? byteTrend.slopePerMinute() * (span / 60_000.0) / level : 0;
        double coverage = (double) last.maxAgeMillis() / window;
        double retained = allocated > 0 ? last.liveBytes() / allocated : last.liveBytes() > 0 ? 1 : 0;
        long gcs = last.gcCount() - series.gcCountAtStart();
        long markings = last.markings() - series.markingsAtStart();
        double rising = byteTrend.risingProbability();
        double perSecond = allocated / (window / 1000.0);
        // Growth beyond the noise: the trend's rise over the span against the sampling errors at both
        // ends (the trend and median variances of each end's third, so one outlying snapshot neither
        // makes nor hides it).
        double[] variances = proven.stream().mapToDouble(SitePoint::liveBytesVariance).toArray();
        double[] early = new double[k];
        for (int i = 0; i < k; i++) {
            early[i] = variances[k - 1 - i];
        }
        boolean separated = k >= 2 && byteTrend.slopePerMinute() * (span / 60_000.0)
                > (k < TREND_TESTED_FROM ? Z_ALONE : Estimate.Z) * Math.sqrt(recentLevel(early) + recentLevel(variances));
        boolean growing = separated && byteTrend.slopePerMinute() > 0 && growth >= GROWTH && (k < TREND_TESTED_FROM || rising >= RISING_STRONG);

        Verdict verdict;
        double support;
        String why;
        if (last.tracked() == 0) {
            verdict = Verdict.TRANSIENT;
            support = gcs > 0 ? support(gcs, 0.5, 3) : 0.5;
            why = "nothing of it is live now: every tracked object was collected";
        } else if (markings == 0) {
            verdict = Verdict.UNDECIDED;
            support = 0;
            why = String.format(Locale.ROOT, "no whole-heap marking in the %s watched: the old generation has not been examined,"
                    + " so its %s live (estimated) may be garbage; watch longer, or force full collections (heaptap leaks --gc)",
                    age(window), HumanUnits.formatBytes(last.unexaminedBytes()));
        } else if (perSecond > 0 && last.live().upper() < perSecond * TRANSIENT_SECONDS && diesYoung) {
            verdict = Verdict.TRANSIENT;
            support = Math.min(support(last.live().upper() / perSecond, TRANSIENT_SECONDS, 0.05 * TRANSIENT_SECONDS),
                    support(markings, 0.5, 2));
            why = String.format(Locale.ROOT, "dies young: after %d whole-heap marking%s it keeps %s, less than %s of what it"
                    + " allocates (%s/s), and nothing older than the last marking's start survives", markings, markings == 1 ? "" : "s",
                    HumanUnits.formatBytes(last.live()), age((long) (TRANSIENT_SECONDS * 1000)), HumanUnits.formatBytes(perSecond));
        } else if (perSecond > 0 && last.live().upper() < perSecond * TRANSIENT_SECONDS) {
            // Nothing older than the last marking's start survives, but what is younger outlives young
            // collections: a cache replaced faster than markings come, or garbage only markings reclaim.
            verdict = Verdict.UNDECIDED;
            support = 0;
            why = String.format(Locale.ROOT, "nothing allocated before the last whole-heap marking survives (%s proven), but its"
                    + " younger objects (%s) outlive young collections: a short-lived cache, or garbage only a marking reclaims;"
                    + " force full collections (heaptap leaks --gc) to tell", HumanUnits.formatBytes(last.live()),
                    HumanUnits.formatBytes(last.unexaminedBytes()));
        } else if (markings < 2 || k < 2) {
            verdict = Verdict.UNDECIDED;
            support = 0;
            why = String.format(Locale.ROOT, "one whole-heap marking in the %s watched: %s proven live, but its growth cannot"
                    + " be measured yet; watch longer, or force full collections (heaptap leaks --gc)", age(window),
                    HumanUnits.formatBytes(last.live()));
        } else if (growing && coverage >= COVERAGE) {
            verdict = Verdict.LEAK_SUSPECT;
            support = Math.min(k < 4 ? 0.75 : support(rising, RISING_STRONG, 0.999),
                    Math.min(support(growth, GROWTH, 0.5), support(coverage, COVERAGE, 0.9)));
            why = String.format(Locale.ROOT, "proven live bytes grow %s/min (%s to %s over %s, %d markings), the oldest object"
                    + " is %s old (%s of the time watched)", HumanUnits.formatBytes(byteTrend.slopePerMinute()),
                    HumanUnits.formatBytes(proven.get(0).live()), HumanUnits.formatBytes(proven.get(k - 1).live()), age(span),
                    markings, age(last.maxAgeMillis()), percent(coverage));
        } else if (coverage < COVERAGE) {
            verdict = Verdict.CACHE_LIKE;
            support = support(coverage, COVERAGE, 0.2);
            why = String.format(Locale.ROOT, "ages reset: the oldest proven object is %s old after %s watched (%s), median age %s%s",
                    age(last.maxAgeMillis()), age(window), percent(coverage), age(last.medianAgeMillis()),
                    growing ? String.format(Locale.ROOT, "; proven live bytes grow %s/min", HumanUnits.formatBytes(byteTrend.slopePerMinute()))
                            : "; proven live bytes steady");
        } else {
            verdict = Verdict.STABLE;
            support = Math.min(support(coverage, COVERAGE, 0.9), growing ? 0.5 : separated ? 0.6 : 0.9);
            why = String.format(Locale.ROOT, "held and not growing beyond the noise (%s over %s, %d markings), the oldest object"
                    + " is %s old (%s of the time watched)", percent(growth), age(span), markings, age(last.maxAgeMillis()),
                    percent(coverage));
        }
        double confidence = support * Math.min(1, Math.max(0, k - 1.0) / (FULL_POINTS - 1))
                * Math.min(1, (double) maxTracked / FULL_TRACKED);
        if (verdict == Verdict.TRANSIENT) {
            // Death needs no marking and no series: a cleared reference, or nothing kept across a marking.
            confidence = support * Math.min(1, (n - 1.0) / (FULL_POINTS - 1));
        }
        double score;
        if (verdict == Verdict.UNDECIDED) {
            // Unproven: ranked by the evidence there is, never called a leak by it. What is tracked and alive, examined
            // or not, and whether it keeps rising; garbage that dies at young collections weighs a quarter.
            long[] at = new long[n];
            double[] held = new double[n];
            for (int i = 0; i < n; i++) {
                at[i] = points.get(i).atMillis();
                held[i] = points.get(i).liveBytes() + points.get(i).unexaminedBytes();
            }
            Trend unproven = Trend.of(at, held);
            double survives = recentLevel(points.stream().mapToDouble(SitePoint::medianGcs).toArray()) >= 1 ? 1 : 0.25;
            score = Math.max(0, unproven.slopePerMinute()) * unproven.risingProbability() * survives;
            if (n >= 2 && score > 0) {
                why += String.format(Locale.ROOT, ". Ranked by unproven evidence: what is tracked of it grows %s/min, rising with"
                        + " probability %.0f%%, median %d collections survived", HumanUnits.formatBytes(unproven.slopePerMinute()),
                        100 * unproven.risingProbability(), last.medianGcs());
            }
        } else {
            score = Math.max(0, byteTrend.slopePerMinute()) * byteTrend.risingProbability() * Math.min(1, coverage);
        }
        return new LeakEvidence(series.key(), verdict, confidence, score, n, k, window, last.tracked(), last.liveBytes(),
                last.live().lower(), last.live().upper(), last.liveObjects(), last.unexaminedBytes(),
                byteTrend.slopePerMinute(), objectTrend.slopePerMinute(), growth, rising, last.medianAgeMillis(),
                last.maxAgeMillis(), coverage, last.medianGcs(), gcs, markings, allocated, retained, why);
    }

    /** The moment a proven point's proof covers, in the watch's milliseconds: what was allocated before it was examined. */
    private static long proofAt(SitePoint p) {
        return p.atMillis() - p.horizonMillis();
    }

    /** The median of the last third of the points: the level growth is measured against. */
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
