package io.heaptap.profile.census;

import java.util.Arrays;
import java.util.List;

/**
 * When the heap runs out at the rate it grows: a line through the heap in use after each whole-heap
 * collection (the collector's figure, or the census's live bytes: {@link HeapReading} says which, and why), its
 * slope with a 95% interval, and the time until the line reaches the maximum heap.
 * <p>
 * The line is Theil and Sen's: its slope is the median of the slopes between every pair of readings, and its
 * level the median of what each reading leaves at that slope. A least-squares line gives its two end readings
 * the most weight, and a watch's ends are where the heap misleads: heaptap's own first steps in the target (the
 * classes and strings its watch loads, some hundred KiB right after the first collection, until the watch came to
 * rehearse its snapshot before it; what the rehearsal misses still lands there) and a cache caught
 * half-built at the last one (measured, #36's scenario on JDK 25: 3 MiB on the last reading moved the
 * least-squares slope by 11%). The median holds while fewer than about three readings in ten stray. The
 * slope's interval is Sen's: the pairwise slopes ranked, cut where Kendall's statistic would call a slope
 * unlikely at 5%. The time's interval takes the steepest slope with the highest level for the earliest time,
 * and the flattest with the lowest for the latest. When the slope's interval reaches 0 or below there is
 * <b>no trend</b>: nothing can be projected.
 * <p>
 * The collector's figure after a forced full collection is more than the live set where that collection leaves dead
 * wood: G1 does not compact a region whose objects are all but {@code MarkSweepDeadRatio} percent live, and leaves its
 * garbage in place; Serial leaves up to that share of its old generation's capacity as dead space at its start (at
 * every full collection but each {@code MarkSweepAlwaysCompactCount}-th); Parallel leaves the garbage of its dense
 * prefix. The collection the JVM runs before it throws OutOfMemoryError compacts everything. With dead wood at most
 * {@code deadWoodShare} of the maximum heap, the live set reaches the maximum no later than the figure reaches
 * {@code max / (1 - deadWoodShare)}, and the latest time is taken there (measured, #36's scenario, G1 4 GiB, JDK 17: the
 * figure rose 0.4-2.2% faster than the leak in five watches, and at the leak's rate with
 * {@code -XX:MarkSweepDeadRatio=0}). On ZGC the JVM fails before the live set fills the heap, once it leaves the room
 * of the pages ZGC does not relocate: the earliest time is when the line reaches {@code max * (1 - reserveShare)}
 * ({@link HeapSlack}).
 *
 * @param points               whole-heap collections the line is fitted to (a count)
 * @param bytesPerMinute       the slope
 * @param bytesPerMinuteLow    lower end of its 95% interval
 * @param bytesPerMinuteHigh   upper end
 * @param heapBytes            the line's level at the last collection
 * @param maxHeapBytes         the heap's maximum
 * @param millis               the projected time to exhaustion from the last collection, -1 without a trend
 * @param millisLow            its earliest (from the steepest slope), -1 without a trend
 * @param millisHigh           its latest (from the flattest slope), -1 without a trend
 * @param trend                whether the heap grows beyond doubt; otherwise the figures above are -1
 * @param reading              which reading of the heap the line follows
 * @param slack                how far from the line's reaching the maximum the JVM can fail: the latest time allows for
 *                             the dead wood, the earliest for the reserve
 */
public record TimeToOom(int points, double bytesPerMinute, double bytesPerMinuteLow, double bytesPerMinuteHigh, double heapBytes,
                        long maxHeapBytes, long millis, long millisLow, long millisHigh, boolean trend, HeapReading reading,
                        HeapSlack slack) {
    /** Above it the series holds too little independent evidence to widen by: such noise is treated as this correlated. */
    static final double MAX_AUTOCORRELATION = 0.8;
    /** With fewer readings Sen's interval cannot exclude 0, whatever they show. */
    public static final int MIN_POINTS = 5;
    /** The normal distribution's 97.5% quantile. */
    private static final double Z975 = 1.959964;
    /** The median absolute deviation times this estimates a normal spread's standard deviation. */
    private static final double MAD_TO_SIGMA = 1.4826;

    /** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
            2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
            2.042};

    /**
     * A reading of the heap after a whole-heap collection: when (ms since the watch started), how many bytes in use by the
     * collector's figure, how many live bytes the class census right after it counted, less heaptap's own
     * ({@link CensusHistory#add}), and whether that collection compacted everything, so its figure holds no dead wood
     * (Serial's every fourth; {@link HeapSlack#fullCompactionEvery}).
     */
    public record Point(long atMillis, long heapBytes, long liveBytes, boolean compacted) {
    }

    /**
     * The projection from {@code points} (oldest first), by their {@code reading}, for a heap of {@code maxHeapBytes}, the
     * JVM failing within {@code slack} of it; null with fewer than {@link #MIN_POINTS}.
     */
    public static TimeToOom of(List<Point> all, long maxHeapBytes, HeapReading reading, HeapSlack slack) {
        List<Point> points = all;
        if (reading == HeapReading.COLLECTOR && slack.fullCompactionEvery() > 0) {
            // The fully compacted readings are the live set exactly: the line follows them alone, with no dead wood.
            points = all.stream().filter(Point::compacted).toList();
            slack = new HeapSlack(0, slack.reserveShare(), slack.fullCompactionEvery());
        }
        int n = points.size();
        if (n < MIN_POINTS || maxHeapBytes <= 0) {
            return null;
        }
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = points.get(i).atMillis() / 60_000.0;
            y[i] = reading.of(points.get(i));
        }
        double[] slopes = pairwiseSlopes(x, y);
        if (slopes.length == 0) {
            return null;  // every reading at one instant: no line
        }
        double slope = middle(slopes);
        double mx = 0;
        for (double v : x) {
            mx += v;
        }
        mx /= n;
        double[] left = new double[n];
        for (int i = 0; i < n; i++) {
            left[i] = y[i] - slope * (x[i] - mx);
        }
        double levelAtMean = median(left);
        double[] residuals = new double[n];
        double ssr = 0;
        for (int i = 0; i < n; i++) {
            residuals[i] = left[i] - levelAtMean;
            ssr += residuals[i] * residuals[i];
        }
        // Collections' noise is correlated from one to the next (a cache refilled over several collections, then
        // replaced): with it, an interval for independent readings is too narrow (measured: it held the true time in 58%
        // of such watches, and claimed a trend on 19% of flat heaps). So the residuals' lag-1 autocorrelation widens
        // the variance by (1 + r) / (1 - r) and leaves (1 - r) / (1 + r) of the points as independent ones.
        double r = Math.min(MAX_AUTOCORRELATION, Math.max(0, lagOneAutocorrelation(residuals, ssr)));
        double inflation = (1 + r) / (1 - r);
        // Sen's interval: Kendall's S has variance n(n-1)(2n+5)/18 for independent readings and is close to normal; the
        // slopes ranked below (N - C) / 2 and above (N + C) / 2 are outside it, with C its 95% half-width. The widening is
        // itself estimated from a few readings, so C grows further by how much Student's t for the independent readings
        // left exceeds that for all of them (without it, a cache cycle's flat heap claimed a trend in 16% of watches).
        int pairs = slopes.length;
        int degrees = Math.max(1, (int) Math.floor(n / inflation) - 2);
        double q = Z975 * t975(degrees) / t975(n - 2);
        double c = q * Math.sqrt(n * (n - 1.0) * (2.0 * n + 5) / 18 * inflation);
        // 1-based ranks, symmetric (highRank = pairs + 1 - lowRank). When the widening leaves no rank inside, the interval
        // is the range of the pairwise slopes: a trend then needs the heap to have risen between every two readings, which
        // a flat heap does by chance once in n! watches of independent readings (a smooth series that bends a little
        // looks correlated, and without this a heap rising at every one of 12 collections was called flat).
        int lowRank = Math.max(1, (int) Math.floor((pairs - c) / 2));
        double low = slopes[lowRank - 1];
        double high = slopes[pairs - lowRank];
        // From the last collection read, which may come after the last one the line follows.
        double lastX = all.get(all.size() - 1).atMillis() / 60_000.0 - mx;
        double level = levelAtMean + slope * lastX;
        if (low <= 0) {
            return new TimeToOom(n, slope, low, high, level, maxHeapBytes, -1, -1, -1, false, reading, slack);
        }
        // The level's 95% interval at the readings' mean time, from their robust spread: the earliest time pairs the
        // highest level with the steepest slope, the latest the lowest level with the flattest.
        double sigma = MAD_TO_SIGMA * median(absolute(residuals));
        double levelHalf = t975(degrees) * sigma * Math.sqrt(inflation / n);
        double room = maxHeapBytes - levelAtMean;
        double projected = room / slope - lastX;
        // The reserve is room the collector cannot fill: the JVM may fail once the highest line reaches max * (1 - reserve).
        double earliest = (maxHeapBytes * (1 - slack.reserveShare()) - levelAtMean - levelHalf) / high - lastX;
        // Dead wood is at most that share of the maximum (of a region, of the old generation's capacity): the live set
        // reaches the maximum no later than the reading's lowest line reaches max / (1 - share), above max + that.
        double latest = (maxHeapBytes / (1 - slack.deadWoodShare()) - levelAtMean + levelHalf) / low - lastX;
        return new TimeToOom(n, slope, low, high, level, maxHeapBytes, minutes(Math.max(0, projected)),
                minutes(Math.max(0, earliest)), minutes(Math.max(0, latest)), true, reading, slack);
    }

    /**
     * The slope between every two readings taken at different times, sorted: one array of n(n-1)/2 doubles, sized
     * exactly by counting first (at {@link CensusHistory#MAX_POINTS} readings, 57 KB while a report is built).
     */
    static double[] pairwiseSlopes(double[] x, double[] y) {
        int k = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = i + 1; j < x.length; j++) {
                k += x[j] != x[i] ? 1 : 0;
            }
        }
        double[] slopes = new double[k];
        k = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = i + 1; j < x.length; j++) {
                if (x[j] != x[i]) {
                    slopes[k++] = (y[j] - y[i]) / (x[j] - x[i]);
                }
            }
        }
        Arrays.sort(slopes);
        return slopes;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return middle(sorted);
    }

    /** The median of values already sorted (the pairwise slopes are), without sorting them again. */
    private static double middle(double[] sorted) {
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }

    private static double[] absolute(double[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Math.abs(values[i]);
        }
        return out;
    }

    /** The residuals' lag-1 autocorrelation, corrected for the -1/n bias a fitted line gives a short series. */
    static double lagOneAutocorrelation(double[] residuals, double ssr) {
        if (ssr <= 0 || residuals.length < 3) {
            return 0;
        }
        double sum = 0;
        for (int i = 1; i < residuals.length; i++) {
            sum += residuals[i] * residuals[i - 1];
        }
        return sum / ssr + 1.0 / residuals.length;
    }

    static double t975(int degrees) {
        if (degrees <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (degrees <= T975.length) {
            return T975[degrees - 1];
        }
        return degrees <= 40 ? 2.021 : degrees <= 60 ? 2.000 : degrees <= 120 ? 1.980 : 1.960;
    }

    private static long minutes(double minutes) {
        return Math.round(Math.min(minutes, Long.MAX_VALUE / 120_000.0) * 60_000);
    }
}
