package io.heaptap.wire.options;

import java.util.Locale;

/**
 * The default sampling's cost bound, stated once: the session's budget enforces it, and the options,
 * the help and every profile's cost line say it.
 */
public final class CostBound {
    /**
     * 1% of the process's CPU, by the sample callback's own clock: a wall clock, which on a busy two-core
     * machine read 1.3-1.7 times the CPU time perf attributed to the callback (threads switched out
     * mid-sample), so it errs on the cheap side. heaptap attaches to production services, whose users judge
     * it by what it takes from their latency: at 1% the bench's busy one-thread target keeps about 2,500
     * samples a second, 75,000 in the default 30 s capture, which its 5% per-site accuracy needs; a quick
     * 10 s capture that needs more asks for a rate and is told what it cost. The one number to change for
     * another bound.
     */
    public static final double CPU_SHARE = 0.01;
    /** The bound never lowers the target below this: 10,000 samples in a 10 s capture. */
    public static final int MIN_RATE = 1_000;

    private CostBound() {
    }

    /** {@link #CPU_SHARE} for people: {@code 1.0%}. */
    public static String describeShare() {
        double percent = CPU_SHARE * 100;
        double tenths = percent * 10;
        if (percent >= 1 && percent < 10 && tenths == Math.rint(tenths)) {
            // %.2g without java.util.Formatter, whose first use loads locale data: this text is in the
            // option help that a capture's start builds in a fresh CLI JVM and in the target.
            long t = (long) tenths;
            return (t / 10) + "." + (t % 10) + "%";
        }
        return String.format(Locale.ROOT, "%.2g%%", percent);
    }
}
