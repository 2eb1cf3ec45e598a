package io.heaptap.wire.options;

import io.heaptap.wire.NativeLimits;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.format.TerminalText;

import io.heaptap.wire.options.CaptureKeys;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a capture is asked to do. Every door (CLI, MBean, HTTP, agent arguments) reads one from text
 * through {@link CaptureKeys}, which declares each option once, so they all accept the same names and units
 * and refuse the same bad values with the same messages; this record checks the ranges.
 *
 * @param duration      the time box; sampling stops when it ends
 * @param intervalBytes mean bytes between samples, per thread: fixed, or where an adaptive capture starts
 * @param sampleRate    samples per second the interval is moved to keep near ({@link SampleRateGovernor}),
 *                      or 0 for a fixed interval
 * @param stackDepth    frames kept per sample
 * @param maxStacks     distinct stacks kept; more are counted without their stack
 * @param live          track sampled objects through weak references (live set, age, GCs survived)
 * @param liveBudget    maximum tracked objects; a full table is thinned, never frozen
 * @param costBounded   the default sampling: fewer samples than {@code sampleRate} where they would cost the
 *                      application more than {@link CostBound#CPU_SHARE} of its CPU (deep stacks); an
 *                      asked-for rate is kept whatever it costs
 * @param liveBytes     the byte bound on tracked objects not yet examined ({@link LiveBound}): 0 for the collector's
 *                      default, below 1 a share of the maximum heap, else bytes ({@link #parseLiveBytes})
 */
public record CaptureOptions(Duration duration, long intervalBytes, int stackDepth, int maxStacks, boolean live,
                             int liveBudget, int sampleRate, boolean costBounded, double liveBytes) {
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
    public static final Duration MAX_DURATION = Duration.ofHours(24);
    public static final long DEFAULT_INTERVAL = 512 * 1024;
    /**
     * Every sample costs a stack walk on the allocating thread, so the interval sets the cost. On a
     * 2-thread target allocating several GB/s (bench AllocationHeavyTarget, 2 cores), the application
     * kept 1% of its allocation throughput at 1 B, 3-5% at 256 B, 15-20% at 1 KiB, 37-49% at 4 KiB
     * and 35-63% at 16-64 KiB: below 4 KiB it is no longer usable.
     */
    public static final long MIN_INTERVAL = 4 * 1024;
    /**
     * The default sample-rate target, samples kept per second over all threads, chosen for accuracy:
     * a 10 s capture then holds about 50,000 samples, and the benchmark's 8-site mix was within 1.0%
     * (JDK 25) and 1.5% (JDK 17) per site (bench/RESULTS.md, 2026-11-23); a site with 10% of the
     * bytes is estimated within about 3% (2 sigma), 1% of them within about 9%. JFR's 150/s would give
     * 1,500 samples there. The default sampling lowers it where samples are expensive
     * (the session's SampleCostBudget: a kept sample's stack walk takes 2-4 us on a shallow stack and over
     * 20 us on a deep one, so 5,000/s cost a two-core service 1-5% of its CPU).
     */
    public static final int DEFAULT_SAMPLE_RATE = 5_000;
    public static final int MIN_SAMPLE_RATE = 10;
    public static final int MAX_SAMPLE_RATE = 100_000;
    public static final long MAX_INTERVAL = 1L << 30;
    public static final int DEFAULT_DEPTH = 64;
    public static final int MAX_DEPTH = NativeLimits.MAX_STACK_DEPTH;
    public static final int DEFAULT_MAX_STACKS = 65_536;
    public static final int MAX_MAX_STACKS = 1 << 20;
    public static final int DEFAULT_LIVE_BUDGET = 65_536;
    public static final int MAX_LIVE_BUDGET = 1 << 20;

    /** The collector's default byte bound. */
    public CaptureOptions(Duration duration, long intervalBytes, int stackDepth, int maxStacks, boolean live, int liveBudget,
                          int sampleRate, boolean costBounded) {
        this(duration, intervalBytes, stackDepth, maxStacks, live, liveBudget, sampleRate, costBounded, 0);
    }

    /** The same options with a byte bound asked for ({@link #parseLiveBytes}; 0: the default). */
    public CaptureOptions withLiveBytes(double bytes) {
        return new CaptureOptions(duration, intervalBytes, stackDepth, maxStacks, live, liveBudget, sampleRate, costBounded, bytes);
    }

    /**
     * The byte bound from human text: {@code 5%} of the maximum heap, or a size ({@code 64m}); blank or
     * {@code default}: 0, the collector's default. Whether the heap allows it is checked in the target
     * ({@link LiveBound}), which knows the heap.
     */
    public static double parseLiveBytes(String text) {
        if (blank(text) || text.strip().equalsIgnoreCase("default")) {
            return 0;
        }
        String t = text.strip();
        if (t.endsWith("%")) {
            BigDecimal percent;
            try {
                percent = new BigDecimal(t.substring(0, t.length() - 1).strip());
            } catch (NumberFormatException e) {
                percent = BigDecimal.ONE.negate();
            }
            if (percent.signum() <= 0 || percent.compareTo(BigDecimal.valueOf(100)) > 0) {
                throw new IllegalArgumentException("live bytes must be a share of the heap above 0% (for example 5%) or a size"
                        + " (for example 64m), not '" + TerminalText.escape(t.length() > 40 ? t.substring(0, 40) + "\u2026" : t) + "'");
            }
            return percent.movePointLeft(2).doubleValue();  // exact: CaptureKeys writes a share back as this text
        }
        if (t.startsWith("-")) {
            throw new IllegalArgumentException("live bytes must be positive, not " + TerminalText.escape(t));
        }
        long bytes = HumanUnits.parseBytes(t);
        if (bytes < 1) {
            throw new IllegalArgumentException("live bytes must be positive (for example 5% or 64m)");
        }
        return bytes;
    }

    /** A fixed interval. */
    public CaptureOptions(Duration duration, long intervalBytes, int stackDepth, int maxStacks, boolean live, int liveBudget) {
        this(duration, intervalBytes, stackDepth, maxStacks, live, liveBudget, 0, false);
    }

    /** A sample-rate target asked for (kept whatever it costs), or with {@code sampleRate} 0 a fixed interval. */
    public CaptureOptions(Duration duration, long intervalBytes, int stackDepth, int maxStacks, boolean live, int liveBudget,
                          int sampleRate) {
        this(duration, intervalBytes, stackDepth, maxStacks, live, liveBudget, sampleRate, false);
    }

    /** The default sampling: about {@value #DEFAULT_SAMPLE_RATE} samples/s, fewer where they cost more than the budget. */
    public static CaptureOptions defaultSampling(Duration duration, int stackDepth, int maxStacks, boolean live, int liveBudget) {
        return new CaptureOptions(duration, DEFAULT_INTERVAL, stackDepth, maxStacks, live, liveBudget, DEFAULT_SAMPLE_RATE, true);
    }

    public CaptureOptions {
        checkDuration(duration);
        if (!(liveBytes >= 0) || Double.isInfinite(liveBytes)) {
            throw new IllegalArgumentException("live bytes must be 0 (the default), a share of the heap or bytes, not " + liveBytes);
        }
        checkInterval(intervalBytes);
        if (sampleRate != 0) {
            checkSampleRate(sampleRate);
        } else if (costBounded) {
            throw new IllegalArgumentException("a cost bound needs a sample-rate target, not a fixed interval");
        }
        if (stackDepth < 1 || stackDepth > MAX_DEPTH) {
            throw new IllegalArgumentException("depth must be between 1 and " + MAX_DEPTH + ", not " + stackDepth);
        }
        if (maxStacks < 1 || maxStacks > MAX_MAX_STACKS) {
            throw new IllegalArgumentException("max stacks must be between 1 and " + MAX_MAX_STACKS + ", not " + maxStacks);
        }
        if (live && (liveBudget < 1 || liveBudget > MAX_LIVE_BUDGET)) {
            throw new IllegalArgumentException("live budget must be between 1 and " + MAX_LIVE_BUDGET + " tracked objects, not "
                    + liveBudget + " (turn live tracking off with --no-live)");
        }
    }

    /**
     * From human text ({@code 30s}; {@code 512k} for a fixed interval, {@code 5000/s} for a sample-rate
     * target); null or blank text means the default. Read by {@link CaptureKeys}, as every door's options are.
     */
    public static CaptureOptions parse(String duration, String sampling, int stackDepth, int maxStacks, boolean live,
                                       int liveBudget) {
        Map<String, String> text = new HashMap<>();
        text.put(CaptureKeys.DURATION.name(), duration);
        text.put(CaptureKeys.INTERVAL.name(), sampling);
        text.put(CaptureKeys.DEPTH.name(), Integer.toString(stackDepth));
        text.put(CaptureKeys.MAX_STACKS.name(), Integer.toString(maxStacks));
        text.put(CaptureKeys.LIVE.name(), Boolean.toString(live));
        text.put(CaptureKeys.LIVE_BUDGET.name(), Integer.toString(liveBudget));
        return CaptureKeys.parse(text);
    }

    /** Whether the interval follows a sample-rate target. */
    public boolean adaptive() {
        return sampleRate > 0;
    }

    /** The sampling as {@link #parse} reads it: {@code 524288} (fixed), {@code 5000/s} (a target) or "" (the default). */
    public String sampling() {
        return costBounded ? "" : adaptive() ? sampleRate + "/s" : Long.toString(intervalBytes);
    }

    /**
     * How the sampling reads to a person: {@code interval 512 KiB}, {@code about 2,000 samples/s (adaptive interval)},
     * or the default's {@code about 5,000 samples/s, fewer if they cost over 1.0% of the CPU (adaptive interval)}.
     */
    public String describeSampling() {
        if (!adaptive()) {
            return "interval " + HumanUnits.formatBytes(intervalBytes);
        }
        String rate = String.format(Locale.ROOT, "about %,d samples/s", sampleRate);
        return rate + (costBounded ? ", fewer if they cost over " + costBound() : "") + " (adaptive interval)";
    }

    /** The default sampling's cost bound for people: {@code 1.0% of the CPU}. */
    public static String costBound() {
        return CostBound.describeShare() + " of the CPU";
    }

    /** The fewest samples a second the default sampling's cost bound lowers its target to. */
    public static int costBoundMinRate() {
        return CostBound.MIN_RATE;
    }

    /** A sample-rate target from text ({@code 5000}), checked against the limits. */
    public static int parseSampleRate(String text) {
        String digits = text.strip().replace("_", "").replace(",", "");
        long rate;
        try {
            if (!digits.matches("[0-9]+")) {  // ASCII only: Long.parseLong reads other scripts' digits too
                throw new NumberFormatException();
            }
            rate = digits.length() > 9 ? Long.MAX_VALUE : Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("sample rate must be a whole number of samples per second (for example 5000), not '"
                    + TerminalText.escape(text.length() > 40 ? text.substring(0, 40) + "\u2026" : text) + "'");
        }
        return checkSampleRate(rate);
    }

    private static int checkSampleRate(long rate) {
        if (rate < MIN_SAMPLE_RATE || rate > MAX_SAMPLE_RATE) {
            throw new IllegalArgumentException("sample rate must be between " + MIN_SAMPLE_RATE + " and " + MAX_SAMPLE_RATE
                    + " samples/s, not " + rate);
        }
        return (int) rate;
    }

    /** Defaults for everything but the time box and the sampling. */
    public static CaptureOptions parse(String duration, String sampling) {
        return parse(duration, sampling, DEFAULT_DEPTH, DEFAULT_MAX_STACKS, true, DEFAULT_LIVE_BUDGET);
    }

    /** A live-view filter from human text: {@code minAge} like {@code 10s} (blank = none), {@code minGcs} 0 or more. */
    public static LiveFilter parseFilter(String minAge, long minGcs) {
        if (!blank(minAge) && minAge.trim().startsWith("-")) {
            throw new IllegalArgumentException("min age must not be negative, not " + minAge.trim());
        }
        if (minGcs < 0) {
            throw new IllegalArgumentException("min GCs must be 0 or more, not " + minGcs);
        }
        return new LiveFilter(blank(minAge) ? Duration.ZERO : HumanUnits.parseDuration(minAge), minGcs);
    }

    /** A time box from human text ({@code 30s}), checked against the limits. */
    public static Duration parseDuration(String text) {
        if (text.trim().startsWith("-")) {
            throw new IllegalArgumentException("duration must be positive, not " + text.trim());
        }
        return checkDuration(HumanUnits.parseDuration(text));
    }

    /** A sampling interval from human text ({@code 512k}), checked against the limits. */
    public static long parseInterval(String text) {
        if (text.trim().startsWith("-")) {
            throw new IllegalArgumentException("interval must be positive, not " + text.trim());
        }
        return checkInterval(HumanUnits.parseBytes(text));
    }

    private static Duration checkDuration(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("duration must be positive (for example 30s)");
        }
        if (duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration " + HumanUnits.formatDuration(duration) + " is above the maximum of 24h");
        }
        return duration;
    }

    /** Between {@link #MIN_INTERVAL} and {@link #MAX_INTERVAL}; a clear IllegalArgumentException otherwise. */
    public static long checkInterval(long intervalBytes) {
        if (intervalBytes <= 0) {
            throw new IllegalArgumentException("interval must be positive (for example 512k)");
        }
        if (intervalBytes < MIN_INTERVAL) {
            throw new IllegalArgumentException("interval " + HumanUnits.formatBytes(intervalBytes) + " is below the minimum of 4 KiB:"
                    + " sampling more often takes most of a busy application's allocation throughput");
        }
        if (intervalBytes > MAX_INTERVAL) {
            throw new IllegalArgumentException("interval " + HumanUnits.formatBytes(intervalBytes) + " is above the maximum of 1 GiB");
        }
        return intervalBytes;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
