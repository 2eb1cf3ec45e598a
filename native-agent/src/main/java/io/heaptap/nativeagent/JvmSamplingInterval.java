package io.heaptap.nativeagent;

/**
 * The interval the JVM's own heap sampler runs at, for the interval the user asked for.
 *
 * <p>Before JDK 25 HotSpot's sampler is biased per site whenever a thread allocates outside its
 * TLAB (fixed by JDK-8356372), and the bias grows with the interval relative to the thread's TLAB:
 * measured on JDK 17 over 48 shapes (4 allocation mixes, G1 and Parallel, 256 MiB and 4 GiB heaps,
 * 1, 2 and 8 threads), every site stayed within 2% beyond noise at 8 KiB in all 48, at 16 KiB in
 * 47, at 32 KiB in 40 and at 512 KiB in 17. So there the JVM samples at 8 KiB and the agent keeps
 * each sample with the probability that makes the kept ones a Poisson sample at the user's
 * interval (samplingThinner.h). JDK 25 has no interval-dependent bias: the JVM runs at the user's
 * interval and nothing is thinned.
 */
public final class JvmSamplingInterval {
    /** The JVM's interval on JDK 11-24 (R/TLAB at most 1/64 on G1's 512 KiB TLAB cap). */
    public static final long BEFORE_JDK_25 = 8 * 1024;
    static final int FIRST_UNBIASED_FEATURE = 25;

    private JvmSamplingInterval() {
    }

    public static long forRequested(int javaFeatureVersion, long requestedBytes) {
        if (javaFeatureVersion >= FIRST_UNBIASED_FEATURE) {
            return requestedBytes;
        }
        return Math.min(requestedBytes, BEFORE_JDK_25);
    }
}
