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
 * <p>Two things widen the upper end for what the sample no longer shows (live tracking's bound lets samples
 * go, liveTable.h): {@code thinUnit}, the weight one more sample would have carried where coins let samples
 * go, since kept samples that are few or none imply a variance near 0 (1 MiB arrays kept with probability
 * 1/200 read 0 [0, 0] while they held a tenth of the heap): the upper end is never below the estimate plus
 * Garwood's bound for no sample at that weight (about 3.7 × thinUnit); and {@code letGo}, weight let go
 * without a coin or any compensation (a critical heap), which may all still be there: the upper end is the
 * one of the kept and the let-go samples together, as if they had been kept.
 *
 * @param value         the estimate
 * @param variance      its estimated variance (0 when every sampled object was certain to be sampled)
 * @param thinUnit      the weight of one more sample where coins let samples go, else 0
 * @param letGo         weight let go without compensation that may still be there, else 0
 * @param letGoVariance its variance, as {@code variance} is the estimate's
 */
public record Estimate(double value, double variance, double thinUnit, double letGo, double letGoVariance) {
    public static final Estimate ZERO = new Estimate(0, 0);
    /** The normal quantile of a two-sided 95% interval. */
    public static final double Z = 1.959963984540054;

    public Estimate {
        variance = Math.max(0, variance);
        thinUnit = Math.max(0, thinUnit);
        letGo = Math.max(0, letGo);
        letGoVariance = Math.max(0, letGoVariance);
    }

    public Estimate(double value, double variance) {
        this(value, variance, 0, 0, 0);
    }

    /** This estimate, its upper end widened for samples let go ({@code thinUnit}, {@code released} above). */
    public Estimate withLetGo(double unit, Estimate released) {
        return new Estimate(value, variance, Math.max(thinUnit, unit), letGo + released.value, letGoVariance + released.variance);
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

    /**
     * The sum. Units take the larger: with no sample left in either part, their probabilities of none add
     * up, so about 3.7 samples' worth at the larger weight still bounds both.
     */
    public Estimate plus(Estimate other) {
        return new Estimate(value + other.value, variance + other.variance, Math.max(thinUnit, other.thinUnit), letGo + other.letGo,
                letGoVariance + other.letGoVariance);
    }

    /**
     * The estimate of a difference of two independent parts (a later cumulative total minus an earlier one).
     * What was let go stays with the later part: it may still be there.
     */
    public Estimate minus(Estimate earlier) {
        return new Estimate(Math.max(0, value - earlier.value), Math.max(0, variance - earlier.variance), thinUnit, letGo,
                letGoVariance);
    }

    public double standardError() {
        return Math.sqrt(variance);
    }

    /** Lower end of the 95% interval. */
    public double lower() {
        double k = effectiveSamples();
        return Double.isInfinite(k) ? value : value * poissonLower(k) / k;
    }

    /** Upper end of the 95% interval, widened for samples let go ({@code thinUnit}, {@code letGo}). */
    public double upper() {
        double all = value + letGo;
        double k = effectiveSamples(all, variance + letGoVariance);
        double sampled = Double.isInfinite(k) ? all : all * poissonUpper(k) / k;
        return Math.max(sampled, all + poissonUpper(0) * thinUnit);
    }

    /** value²/variance: how many equal-weight samples the estimate is worth; infinite when exact. */
    double effectiveSamples() {
        return effectiveSamples(value, variance);
    }

    private static double effectiveSamples(double value, double variance) {
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
