package io.heaptap.profile.leak;

import java.util.Arrays;

/**
 * The trend of a noisy series. The slope is Theil–Sen's (the median of the slopes between all
 * pairs of points), which a few outliers cannot move: the step up when a kept set is built, or a
 * point where a collection had not yet run. How sure the series rises is the Mann–Kendall test:
 * the normal approximation of S, the count of rising pairs minus falling pairs.
 *
 * @param slopePerMinute units per minute
 * @param risingProbability the probability that the series rises, 0.5 for no evidence either way
 */
public record Trend(double slopePerMinute, double risingProbability) {

    public static final Trend NONE = new Trend(0, 0.5);

    /** {@code millis} in increasing order, one value each. */
    public static Trend of(long[] millis, double[] values) {
        int n = millis.length;
        if (n != values.length) {
            throw new IllegalArgumentException("one value per time");
        }
        if (n < 2) {
            return NONE;
        }
        double[] slopes = new double[n * (n - 1) / 2];
        int k = 0;
        long s = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double minutes = (millis[j] - millis[i]) / 60_000.0;
                slopes[k++] = minutes > 0 ? (values[j] - values[i]) / minutes : 0;
                s += Double.compare(values[j], values[i]);
            }
        }
        Arrays.sort(slopes, 0, k);
        double median = k % 2 == 1 ? slopes[k / 2] : (slopes[k / 2 - 1] + slopes[k / 2]) / 2;
        return new Trend(median, risingProbability(s, n));
    }

    /** Mann–Kendall without the tie correction (ties only make it more cautious). */
    static double risingProbability(long s, int n) {
        double variance = n * (n - 1.0) * (2.0 * n + 5) / 18;
        double z = s == 0 ? 0 : (s - Math.signum(s)) / Math.sqrt(variance);
        return normalCdf(z);
    }

    /** Φ(z), from the Abramowitz–Stegun 7.1.26 approximation of erf (error below 1.5e-7). */
    static double normalCdf(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
                * Math.exp(-x * x);
        return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
    }
}
