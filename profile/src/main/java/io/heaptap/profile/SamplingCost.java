package io.heaptap.profile;

import java.time.Duration;
import java.util.Locale;

/**
 * What heaptap's sampling cost the application during a capture, measured in the target: the time its
 * sample callback took on the allocating threads (HotSpot's stack walk and heaptap's recording, by the
 * callback's own clock), beside the process's CPU time over the same window. Not in it: the JVM's own
 * part of each sampling event (about a quarter more on JDK 25; on JDK 11-24 also the events heaptap
 * thins away, docs/sampling.md) and heaptap's own threads (0.2-0.3% of a saturated two-core target).
 *
 * @param samples         samples kept in the window
 * @param callbackNanos   nanoseconds the callback spent on them
 * @param processCpuNanos the process's CPU time over the window, or -1 when unknown
 * @param budgetShare     the share of the process's CPU the default sampling keeps the callback under, or 0 when
 *                        the rate (or interval) was asked for and kept whatever it cost
 */
public record SamplingCost(long samples, long callbackNanos, long processCpuNanos, double budgetShare) {
    /** For a profile whose cost was not measured (a JVM without the callback's clock). */
    public static final SamplingCost UNKNOWN = new SamplingCost(0, 0, -1, 0);

    /** The callback's share of the process's CPU, 0..1; NaN when the process's CPU is unknown or none was used. */
    public double share() {
        return processCpuNanos <= 0 ? Double.NaN : (double) callbackNanos / processCpuNanos;
    }

    /** What a kept sample cost, in nanoseconds; NaN without samples. */
    public double nanosPerSample() {
        return samples <= 0 ? Double.NaN : (double) callbackNanos / samples;
    }

    /** The cost between an earlier measurement of the same capture and this one (a pprof {@code ?seconds=N} window). */
    public SamplingCost since(SamplingCost earlier) {
        long cpu = processCpuNanos < 0 || earlier.processCpuNanos < 0 ? -1 : Math.max(0, processCpuNanos - earlier.processCpuNanos);
        return new SamplingCost(Math.max(0, samples - earlier.samples), Math.max(0, callbackNanos - earlier.callbackNanos), cpu,
                budgetShare);
    }

    /**
     * One line: {@code sample callback 256ms = 1.37% of 18.8s process CPU (4.6 \u00b5s a sample; kept under 1.0%)},
     * or what is known of it.
     */
    public String describe() {
        if (samples <= 0) {
            return "no samples kept";
        }
        String spent = "sample callback " + HumanUnits.formatDuration(Duration.ofNanos(callbackNanos));
        String perSample = String.format(Locale.ROOT, "%.1f \u00b5s a sample", nanosPerSample() / 1000);
        String bound = budgetShare > 0 ? String.format(Locale.ROOT, "; kept under %.2g%%", budgetShare * 100) : "";
        if (Double.isNaN(share())) {
            return spent + " (" + perSample + bound + "; the process's CPU time is unknown)";
        }
        return String.format(Locale.ROOT, "%s = %.2f%% of %s process CPU (%s%s)", spent, share() * 100,
                HumanUnits.formatDuration(Duration.ofNanos(processCpuNanos)), perSample, bound);
    }
}
