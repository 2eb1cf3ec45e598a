package io.heaptap.session;

import io.heaptap.wire.options.CostBound;

import io.heaptap.profile.HumanUnits;

import java.util.Locale;
import java.util.Optional;

/**
 * Which JDKs' heap samplers can be trusted per site. Before JDK 25, HotSpot's sampler lost track
 * of bytes around TLAB refills and allocations outside TLABs (fixed by JDK-8356372 in JDK 25).
 * Most of that bias grows with the interval, and heaptap removes it by sampling at 8 KiB in the
 * JVM and thinning in the agent (JvmSamplingInterval): measured sites within 2% at 8 KiB. One part
 * does not shrink with the interval: the object allocated right after one allocated outside a TLAB
 * is charged about 100 extra bytes per such allocation (measured on JDK 17 at 8, 16 and 512 KiB: a
 * 24-byte object following each 1 MiB array estimated at 5.4-5.6 times its count). That is what the
 * warning says (docs/sampling.md).
 */
public final class SamplerAccuracy {
    static final int FIRST_ACCURATE_FEATURE = 25;
    /** The largest JVM interval whose bias the 48-shape study found within 2% in all but one shape (JvmSamplingInterval). */
    static final long ACCURATE_JVM_INTERVAL = 16 * 1024;
    /**
     * The worst per-site error measured on JDK 17's known-truth mix at JVM intervals of 8, 64, 128 and
     * 512 KiB (docs/accuracy.md, docs/sampling.md): 0.3%, 2.6%, 6%, 36%. Between them the bias is read on
     * a log-log line (it grows a little faster than the interval); beyond 512 KiB it is not claimed.
     */
    private static final long[] MEASURED_INTERVALS = {8 * 1024, 64 * 1024, 128 * 1024, 512 * 1024};
    private static final double[] MEASURED_BIAS = {0.003, 0.026, 0.06, 0.36};

    private SamplerAccuracy() {
    }

    /** A one-line warning for JVMs whose sampler is biased, or empty. */
    public static Optional<String> warningFor(int javaFeatureVersion) {
        if (javaFeatureVersion >= FIRST_ACCURATE_FEATURE) {
            return Optional.empty();
        }
        return Optional.of("JDK " + javaFeatureVersion + "'s heap sampler is biased after allocations outside a TLAB (fixed in JDK 25"
                + " by JDK-8356372): a small object allocated right after a large array can be overestimated several-fold;"
                + " other sites are within a few percent (heaptap samples at 8 KiB and thins); see docs/sampling.md");
    }

    /**
     * The worst per-site bias measured at a JVM interval before JDK 25 (0..1), read between the measured
     * intervals; NaN beyond the largest measured one (512 KiB), where nothing per site is claimed.
     */
    static double biasAt(long jvmIntervalBytes) {
        if (jvmIntervalBytes <= MEASURED_INTERVALS[0]) {
            return MEASURED_BIAS[0];
        }
        for (int i = 1; i < MEASURED_INTERVALS.length; i++) {
            if (jvmIntervalBytes <= MEASURED_INTERVALS[i]) {
                double t = Math.log((double) jvmIntervalBytes / MEASURED_INTERVALS[i - 1])
                        / Math.log((double) MEASURED_INTERVALS[i] / MEASURED_INTERVALS[i - 1]);
                return Math.exp(Math.log(MEASURED_BIAS[i - 1]) + t * Math.log(MEASURED_BIAS[i] / MEASURED_BIAS[i - 1]));
            }
        }
        return Double.NaN;
    }

    /**
     * When the cost bound made the JVM sample at more than {@link #ACCURATE_JVM_INTERVAL} before JDK 25
     * (its own events cost 500 ns each), a warning that says by how much the per-site figures may be off
     * beyond their stated intervals, or that they are not to be trusted past 512 KiB; else empty.
     */
    public static Optional<String> biasWarning(int javaFeatureVersion, long maxJvmIntervalBytes) {
        if (javaFeatureVersion >= FIRST_ACCURATE_FEATURE || maxJvmIntervalBytes <= ACCURATE_JVM_INTERVAL) {
            return Optional.empty();
        }
        String interval = HumanUnits.formatBytes(maxJvmIntervalBytes);
        double bias = biasAt(maxJvmIntervalBytes);
        String claim = Double.isNaN(bias)
                ? "per-site figures are not to be trusted (36% off or more on a known-truth mix at 512 KiB)"
                : String.format(Locale.ROOT, "a site's figure may be off by up to %.1f%% beyond its stated interval (measured at that"
                        + " interval on a known-truth mix)", bias * 100);
        return Optional.of("to keep the " + CostBound.describeShare() + " cost bound on JDK " + javaFeatureVersion + " the JVM sampled at up to " + interval
                + " (its own sampling events cost about 500 ns each): " + claim + "; --rate N samples at 8-16 KiB whatever"
                + " that costs; see docs/sampling.md");
    }
}
