package io.heaptap.session;

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
}
