package io.heaptap.session;

import java.util.Optional;

/**
 * Which JDKs' heap samplers can be trusted per site. Before JDK 25, HotSpot's sampler lost track
 * of bytes around TLAB refills and allocations outside TLABs (fixed by JDK-8356372 in JDK 25):
 * objects that trigger a TLAB refill are sampled too often and large objects allocated outside
 * TLABs too rarely, so per-site estimates are off even though the weights are right.
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
        return Optional.of("JDK " + javaFeatureVersion + "'s heap sampler is biased per site (fixed in JDK 25 by JDK-8356372): "
                + "treat per-site estimates as approximate; see heaptap's docs/accuracy.md");
    }
}
