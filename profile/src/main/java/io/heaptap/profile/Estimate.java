package io.heaptap.profile;

/**
 * An estimate from the sampling design and its uncertainty. Every sampled object (allocation
 * sample or tracked live object) stands for 1/π objects, π being its probability of being in the
 * sample (the Poisson sampler's times the live table's admission and thinning coins); the
 * Horvitz–Thompson variance of a sum of such weights is Σ (1−π)/π² y², which {@link #plus} adds up.
 *
 * <p>The 95% interval is not the normal one, which is poor for few samples (and a sum of positive
 * weights cannot be negative): the estimate is treated as k = value²/variance effective Poisson
 * samples of equal weight (exact when the weights are equal and π is small), and Garwood's exact
 * Poisson interval for k is scaled back. With many samples it is the normal interval; with one it
 * is about [0.025, 5.6] × the estimate; with π = 1 for all (objects larger than the sampling
 * interval) the variance is 0 and so is the width.
 *
 * @param value    the estimate
 * @param variance its estimated variance (0 when every sampled object was certain to be sampled)
 */
public record Estimate(double value, double variance) {
    public static final Estimate ZERO = new Estimate(0, 0);
    /** The normal quantile of a two-sided 95% interval. */
    public static final double Z = 1.959963984540054;

    public Estimate {
        variance = Math.max(0, variance);
    }

    /** Of one sampled object of {@code size} bytes that stands for {@code weight} objects: its bytes. */
    public static Estimate bytesOf(long size, double weight) {
        double b = size * weight;
        return new Estimate(b, b * b - size * b);
    }

    /** Of one sampled object that stands for {@code weight} objects: its objects. */
    public static Estimate objectsOf(double weight) {
        return new Estimate(weight, weight * weight - weight);
    }

    public Estimate plus(Estimate other) {
        return new Estimate(value + other.value, variance + other.variance);
    }

    /** The estimate of a difference of two independent parts (a later cumulative total minus an earlier one). */
    public Estimate minus(Estimate earlier) {
        return new Estimate(Math.max(0, value - earlier.value), Math.max(0, variance - earlier.variance));
    }

    public double standardError() {
        return Math.sqrt(variance);
    }

    /** Lower end of the 95% interval. */
    public double lower() {
        double k = effectiveSamples();
        return Double.isInfinite(k) ? value : value * poissonLower(k) / k;
    }

    /** Upper end of the 95% interval. */
    public double upper() {
        double k = effectiveSamples();
        return Double.isInfinite(k) ? value : value * poissonUpper(k) / k;
    }

    /** value²/variance: how many equal-weight samples the estimate is worth; infinite when exact. */
    double effectiveSamples() {
        return variance <= 0 || value <= 0 ? Double.POSITIVE_INFINITY : value * value / variance;
    }

    /** Whether {@code truth} lies in the 95% interval. */
    public boolean covers(double truth) {
        return truth >= lower() && truth <= upper();
    }

    /** Garwood's lower bound for a Poisson count k: the 2.5% quantile of χ² with 2k degrees, halved. */
    static double poissonLower(double k) {
        return k <= 0 ? 0 : chiSquareQuantile(2 * k, -Z) / 2;
    }

    /** Garwood's upper bound: the 97.5% quantile of χ² with 2k+2 degrees, halved. */
    static double poissonUpper(double k) {
        return chiSquareQuantile(2 * k + 2, Z) / 2;
    }

    /** Wilson–Hilferty: χ²(ν) ≈ ν (1 − 2/(9ν) + z √(2/(9ν)))³, within a few percent from ν = 1. */
    static double chiSquareQuantile(double nu, double z) {
        double a = 2 / (9 * nu);
        double c = 1 - a + z * Math.sqrt(a);
        return c <= 0 ? 0 : nu * c * c * c;
    }
}
