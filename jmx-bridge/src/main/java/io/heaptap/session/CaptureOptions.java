package io.heaptap.session;

import io.heaptap.profile.HumanUnits;

import java.time.Duration;

/**
 * What a capture is asked to do. Every entry point (CLI, MBean, HTTP) builds one through
 * {@link #parse}, so they all accept the same units and refuse the same bad values with the same
 * messages.
 *
 * @param duration      the time box; sampling stops when it ends
 * @param intervalBytes mean bytes between samples, per thread
 * @param stackDepth    frames kept per sample
 * @param maxStacks     distinct stacks kept; more are counted without their stack
 */
public record CaptureOptions(Duration duration, long intervalBytes, int stackDepth, int maxStacks) {
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);
    public static final Duration MAX_DURATION = Duration.ofHours(24);
    public static final long DEFAULT_INTERVAL = 512 * 1024;
    public static final long MAX_INTERVAL = 1L << 30;
    public static final int DEFAULT_DEPTH = 64;
    public static final int MAX_DEPTH = 2048;
    public static final int DEFAULT_MAX_STACKS = 65_536;
    public static final int MAX_MAX_STACKS = 1 << 20;

    public CaptureOptions {
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("duration must be positive (for example 30s)");
        }
        if (duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration " + HumanUnits.formatDuration(duration) + " is above the maximum of 24h");
        }
        if (intervalBytes <= 0) {
            throw new IllegalArgumentException("interval must be positive (for example 512k)");
        }
        if (intervalBytes > MAX_INTERVAL) {
            throw new IllegalArgumentException("interval " + HumanUnits.formatBytes(intervalBytes) + " is above the maximum of 1 GiB");
        }
        if (stackDepth < 1 || stackDepth > MAX_DEPTH) {
            throw new IllegalArgumentException("depth must be between 1 and " + MAX_DEPTH + ", not " + stackDepth);
        }
        if (maxStacks < 1 || maxStacks > MAX_MAX_STACKS) {
            throw new IllegalArgumentException("max stacks must be between 1 and " + MAX_MAX_STACKS + ", not " + maxStacks);
        }
    }

    public static CaptureOptions defaults() {
        return new CaptureOptions(DEFAULT_DURATION, DEFAULT_INTERVAL, DEFAULT_DEPTH, DEFAULT_MAX_STACKS);
    }

    /** From human text ({@code 30s}, {@code 512k}); null or blank text means the default. */
    public static CaptureOptions parse(String duration, String interval, int stackDepth, int maxStacks) {
        Duration d = blank(duration) ? DEFAULT_DURATION : parseDuration(duration);
        long i = blank(interval) ? DEFAULT_INTERVAL : parseInterval(interval);
        return new CaptureOptions(d, i, stackDepth, maxStacks);
    }

    private static Duration parseDuration(String text) {
        if (text.trim().startsWith("-")) {
            throw new IllegalArgumentException("duration must be positive, not " + text.trim());
        }
        return HumanUnits.parseDuration(text);
    }

    private static long parseInterval(String text) {
        if (text.trim().startsWith("-")) {
            throw new IllegalArgumentException("interval must be positive, not " + text.trim());
        }
        return HumanUnits.parseBytes(text);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
