package io.heaptap.profile.census;

import java.util.List;

/**
 * When the heap runs out at the rate it grows: a least-squares line through the heap in use after
 * each whole-heap collection, its slope with a 95% interval (Student's t), and the time until the
 * line reaches the maximum heap. The interval of the time comes from that of the slope: the steepest
 * slope gives the earliest time, the flattest the latest. When the slope's interval reaches 0 or below
 * there is <b>no trend</b>: nothing can be projected.
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
 */
public record TimeToOom(int points, double bytesPerMinute, double bytesPerMinuteLow, double bytesPerMinuteHigh, double heapBytes,
                        long maxHeapBytes, long millis, long millisLow, long millisHigh, boolean trend) {
    /** Above it the series holds too little independent evidence to widen by: such noise is treated as this correlated. */
    static final double MAX_AUTOCORRELATION = 0.8;
    /** Fewer points leave no degree of freedom for the slope's interval. */
    public static final int MIN_POINTS = 3;

    /** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
            2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
            2.042};

    /** A reading of the heap after a whole-heap collection: when (ms since the watch started) and how many bytes in use. */
    public record Point(long atMillis, long heapBytes) {
    }

    /** The projection from {@code points} (oldest first) for a heap of {@code maxHeapBytes}; null with fewer than {@link #MIN_POINTS}. */
    public static TimeToOom of(List<Point> points, long maxHeapBytes) {
        int n = points.size();
        if (n < MIN_POINTS || maxHeapBytes <= 0) {
            return null;
        }
        double mx = 0;
        double my = 0;
        for (Point p : points) {
            mx += p.atMillis() / 60_000.0;
            my += p.heapBytes();
        }
        mx /= n;
        my /= n;
        double sxx = 0;
        double sxy = 0;
        for (Point p : points) {
            double dx = p.atMillis() / 60_000.0 - mx;
            sxx += dx * dx;
            sxy += dx * (p.heapBytes() - my);
        }
        if (sxx <= 0) {
            return null;  // every reading at one instant: no line
        }
        double slope = sxy / sxx;
        double[] residuals = new double[n];
        double ssr = 0;
        for (int i = 0; i < n; i++) {
            Point p = points.get(i);
            residuals[i] = p.heapBytes() - (my + slope * (p.atMillis() / 60_000.0 - mx));
            ssr += residuals[i] * residuals[i];
        }
        // Collections' noise is correlated from one to the next (a cache refilled over several collections, then
        // replaced): with it, the plain least-squares interval is too narrow (measured: it held the true time in 58%
        // of such watches, and claimed a trend on 19% of flat heaps). So the residuals' lag-1 autocorrelation widens
        // the variance by (1 + r) / (1 - r) and leaves (1 - r) / (1 + r) of the points as independent ones.
        double r = Math.min(MAX_AUTOCORRELATION, Math.max(0, lagOneAutocorrelation(residuals, ssr)));
        double inflation = (1 + r) / (1 - r);
        double variance = ssr / (n - 2) * inflation;
        int degrees = Math.max(1, (int) Math.floor(n / inflation) - 2);
        double q = t975(degrees);
        double half = q * Math.sqrt(variance / sxx);
        double low = slope - half;
        double high = slope + half;
        double lastX = points.get(n - 1).atMillis() / 60_000.0 - mx;
        double level = my + slope * lastX;
        if (low <= 0) {
            return new TimeToOom(n, slope, low, high, level, maxHeapBytes, -1, -1, -1, false);
        }
        // When the line reaches the maximum, with a 95% interval that holds the uncertainty of the line's level and of its
        // slope together (Fieller's interval for the x where the line takes a value): the times at which the maximum is
        // inside the line's 95% band. Bounded on both sides because the slope's interval excludes 0.
        double d = maxHeapBytes - my;
        double a = slope * slope - q * q * variance / sxx;
        double b = d * slope;
        double c = d * d - q * q * variance / n;
        double root = Math.sqrt(Math.max(0, b * b - a * c));
        double earliest = (b - root) / a - lastX;
        double latest = (b + root) / a - lastX;
        double projected = d / slope - lastX;
        return new TimeToOom(n, slope, low, high, level, maxHeapBytes, minutes(Math.max(0, projected)), minutes(Math.max(0, earliest)),
                minutes(Math.max(0, latest)), true);
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
