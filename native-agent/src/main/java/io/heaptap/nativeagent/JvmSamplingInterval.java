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
 *
 * <p>Every JVM sample costs even when the agent drops it: about 300 ns on JDK 17 (the JVM's event
 * and the agent's callback), so 8 KiB costs about 37 ms of CPU per GiB allocated, a third of a core
 * at 10 GB/s. Under a sample-rate target the session therefore passes the allocation rate,
 * and above {@link #MAX_EVENTS_PER_SECOND} JVM samples a second the JVM's interval rises to
 * {@link #MAX_BEFORE_JDK_25} (cost halved; accuracy as measured above), and no further: accuracy
 * comes first on these JDKs. It
 * comes down again when half the interval would stay under half that rate, so a rate near a
 * threshold does not flip it at every reading.
 *
 * <p>Accuracy comes first only while the events fit the default sampling's cost bound: the session
 * prices them (about 500 ns each on JDK 17, measured by bench JvmEventPrice) and passes the least
 * interval at which they fit it, which can be far above 16 KiB at several GB/s; the profile then says
 * what that interval's bias is (docs/sampling.md).
 */
public final class JvmSamplingInterval {
    /** The JVM's interval on JDK 11-24 (R/TLAB at most 1/64 on G1's 512 KiB TLAB cap). */
    public static final long BEFORE_JDK_25 = 8 * 1024;
    /**
     * The largest interval the JVM is raised to before JDK 25 at high allocation rates. 16 KiB, not
     * 32: at 32 KiB the benchmark's accuracy section (8 sites from 64 B to 4 MiB, a 10 s capture at the
     * defaults) had its 64 KiB site 6.1% low on JDK 17, beyond the 5% goal; 16 KiB kept all 48 shapes
     * of the study within 5%.
     */
    public static final long MAX_BEFORE_JDK_25 = 16 * 1024;
    /** JVM samples a second above which the interval rises before JDK 25: about 30 ms of CPU a second. */
    public static final long MAX_EVENTS_PER_SECOND = 100_000;
    static final int FIRST_UNBIASED_FEATURE = 25;

    private JvmSamplingInterval() {
    }

    public static long forRequested(int javaFeatureVersion, long requestedBytes) {
        if (javaFeatureVersion >= FIRST_UNBIASED_FEATURE) {
            return requestedBytes;
        }
        return Math.min(requestedBytes, BEFORE_JDK_25);
    }

    /**
     * The JVM's interval for {@code requestedBytes} when the application allocates
     * {@code allocatedBytesPerSecond} (negative: unknown) and the JVM now samples at {@code currentBytes}.
     */
    public static long forRate(int javaFeatureVersion, long requestedBytes, long allocatedBytesPerSecond, long currentBytes) {
        return forRate(javaFeatureVersion, requestedBytes, allocatedBytesPerSecond, currentBytes, 0);
    }

    /**
     * As {@link #forRate(int, long, long, long)}, but never below {@code minBytes} (nor above {@code requestedBytes}):
     * the least interval at which the JVM's events fit a cost bound, before JDK 25; 0 for none.
     */
    public static long forRate(int javaFeatureVersion, long requestedBytes, long allocatedBytesPerSecond, long currentBytes,
                               long minBytes) {
        long byRate = forRateUnbounded(javaFeatureVersion, requestedBytes, allocatedBytesPerSecond,
                Math.min(currentBytes, MAX_BEFORE_JDK_25));
        if (javaFeatureVersion >= FIRST_UNBIASED_FEATURE || minBytes <= byRate) {
            return byRate;
        }
        return Math.min(minBytes, requestedBytes);
    }

    private static long forRateUnbounded(int javaFeatureVersion, long requestedBytes, long allocatedBytesPerSecond, long currentBytes) {
        long base = forRequested(javaFeatureVersion, requestedBytes);
        if (javaFeatureVersion >= FIRST_UNBIASED_FEATURE || allocatedBytesPerSecond < 0 || base < BEFORE_JDK_25) {
            return base;
        }
        long wanted = base;
        while (wanted < MAX_BEFORE_JDK_25 && wanted < requestedBytes && allocatedBytesPerSecond / wanted > MAX_EVENTS_PER_SECOND) {
            wanted *= 2;
        }
        long current = Math.max(base, Math.min(currentBytes, Math.min(MAX_BEFORE_JDK_25, requestedBytes)));
        if (wanted >= current) {
            return wanted;
        }
        // Lower one step at a time, and only where the smaller interval stays well under the threshold.
        long lower = current / 2;
        return allocatedBytesPerSecond / lower <= MAX_EVENTS_PER_SECOND / 2 ? Math.max(lower, wanted) : current;
    }
}
