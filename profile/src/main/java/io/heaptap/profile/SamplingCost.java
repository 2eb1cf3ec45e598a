package io.heaptap.profile;

import java.time.Duration;
import java.util.Locale;

/**
 * What heaptap's sampling cost the application during a capture, measured in the target: the time its
 * sample callback took on the allocating threads (HotSpot's stack walk and heaptap's recording, by the
 * callback's own clock), on JDK 11-24 the JVM's own sampling events priced per event (heaptap keeps the
 * JVM's interval small there and thins in the agent, and every event costs its thread even when thinned
 * away), beside the process's CPU time over the same window. Not in it: heaptap's own threads (0.2-0.3%
 * of a saturated two-core target) and, on JDK 25, the JVM's part of each kept sample (about a quarter
 * more than the callback).
 *
 * @param samples         samples kept in the window
 * @param callbackNanos   nanoseconds the callback spent on them
 * @param processCpuNanos the process's CPU time over the window, or -1 when unknown
 * @param budgetShare     the share of the process's CPU the default sampling keeps its cost under, or 0 when
 *                        the rate (or interval) was asked for and kept whatever it cost
 * @param jvmEvents       the JVM's sampling events in the window, as the agent counted them (JDK 11-24;
 *                        0 where they are not priced)
 * @param jvmEventNanos   what they cost the allocating threads, at the measured price of one
 */
public record SamplingCost(long samples, long callbackNanos, long processCpuNanos, double budgetShare, long jvmEvents,
                           long jvmEventNanos) {
    /** For a profile whose cost was not measured (a JVM without the callback's clock). */
    public static final SamplingCost UNKNOWN = new SamplingCost(0, 0, -1, 0);

    /** Without priced JVM events (JDK 25, or a target older than them). */
    public SamplingCost(long samples, long callbackNanos, long processCpuNanos, double budgetShare) {
        this(samples, callbackNanos, processCpuNanos, budgetShare, 0, 0);
    }

    /** The callback's and the JVM's priced events' nanoseconds: what the bound counts. */
    public long countedNanos() {
        return callbackNanos + jvmEventNanos;
    }

    /** The counted cost's share of the process's CPU, 0..1; NaN when the process's CPU is unknown or none was used. */
    public double share() {
        return processCpuNanos <= 0 ? Double.NaN : (double) countedNanos() / processCpuNanos;
    }

    /** What a kept sample cost the callback, in nanoseconds; NaN without samples. */
    public double nanosPerSample() {
        return samples <= 0 ? Double.NaN : (double) callbackNanos / samples;
    }

    /** The cost between an earlier measurement of the same capture and this one (a pprof {@code ?seconds=N} window). */
    public SamplingCost since(SamplingCost earlier) {
        long cpu = processCpuNanos < 0 || earlier.processCpuNanos < 0 ? -1 : Math.max(0, processCpuNanos - earlier.processCpuNanos);
        return new SamplingCost(Math.max(0, samples - earlier.samples), Math.max(0, callbackNanos - earlier.callbackNanos), cpu,
                budgetShare, Math.max(0, jvmEvents - earlier.jvmEvents), Math.max(0, jvmEventNanos - earlier.jvmEventNanos));
    }

    /**
     * One line: {@code sample callback 256ms = 0.87% of 18.8s process CPU (4.6 \u00b5s a sample; bound 1.0%;
     * not counted: heaptap's threads, the JVM's part of each sample)}; {@code bound 1.0%, over it} where the figure is
     * above its bound (a capture's first seconds, before the first price; the minimum rate on a deep stack); on JDK 11-24
     * {@code sample callback 120ms + the JVM's 412,000 sampling events 206ms = 0.95% of ...}; or what is known of it.
     */
    public String describe() {
        if (samples <= 0 && jvmEvents <= 0) {
            return "no samples kept";
        }
        String spent = "sample callback " + HumanUnits.formatDuration(Duration.ofNanos(callbackNanos));
        if (jvmEvents > 0) {
            spent += String.format(Locale.ROOT, " + the JVM's %,d sampling events %s", jvmEvents,
                    HumanUnits.formatDuration(Duration.ofNanos(jvmEventNanos)));
        }
        String perSample = samples <= 0 ? "no samples kept" : String.format(Locale.ROOT, "%.1f \u00b5s a sample", nanosPerSample() / 1000);
        // The bound is what the budget aims at, not a promise the figure keeps: a line that said "kept under 1.0%" beside
        // 1.48% contradicted itself, so an exceeded bound is said to be.
        String over = !Double.isNaN(share()) && share() > budgetShare ? ", over it" : "";
        String bound = budgetShare > 0 ? String.format(Locale.ROOT, "; bound %.2g%%%s", budgetShare * 100, over) : "";
        String notCounted = jvmEvents > 0 ? "; not counted: heaptap's threads" : "; not counted: heaptap's threads, the JVM's part of each sample";
        if (Double.isNaN(share())) {
            return spent + " (" + perSample + bound + notCounted + "; the process's CPU time is unknown)";
        }
        return String.format(Locale.ROOT, "%s = %.2f%% of %s process CPU (%s%s%s)", spent, share() * 100,
                HumanUnits.formatDuration(Duration.ofNanos(processCpuNanos)), perSample, bound, notCounted);
    }
}
