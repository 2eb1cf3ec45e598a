package io.heaptap.session;

import io.heaptap.profile.HumanUnits;

import java.time.Duration;

/**
 * What a leak watch runs for: how long, how often it takes a live snapshot, the sampling interval
 * of its captures, and whether a full collection is forced before each snapshot ({@code gc}: it
 * pauses the application, and proves which objects are live). A watch may outlast one capture's
 * 24 h box: the capture is re-armed.
 */
public record LeakWatchOptions(Duration duration, Duration every, long intervalBytes, boolean gc) {
    public static final Duration DEFAULT_DURATION = Duration.ofMinutes(5);
    public static final Duration DEFAULT_EVERY = Duration.ofSeconds(15);
    public static final Duration MAX_DURATION = Duration.ofDays(7);
    /** A snapshot walks the whole live table: more often than this is wasted work. */
    public static final Duration MIN_EVERY = Duration.ofSeconds(1);

    public LeakWatchOptions {
        positive(duration, "duration");
        positive(every, "every");
        if (duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration " + HumanUnits.formatDuration(duration) + " is above the maximum of 7 days");
        }
        if (every.compareTo(MIN_EVERY) < 0) {
            throw new IllegalArgumentException("every must be at least 1s, not " + HumanUnits.formatDuration(every));
        }
        if (every.compareTo(duration) > 0) {
            throw new IllegalArgumentException("every (" + HumanUnits.formatDuration(every) + ") must not be longer than duration ("
                    + HumanUnits.formatDuration(duration) + "): the watch would take no snapshot to compare");
        }
        CaptureOptions.checkInterval(intervalBytes);
    }

    /** From human text ({@code 5m}, {@code 15s}, {@code 512k}); null or blank text means the default. */
    public static LeakWatchOptions parse(String duration, String every, String interval, boolean gc) {
        return new LeakWatchOptions(parseDuration(duration, "duration", DEFAULT_DURATION), parseDuration(every, "every", DEFAULT_EVERY),
                interval == null || interval.isBlank() ? CaptureOptions.DEFAULT_INTERVAL : CaptureOptions.parseInterval(interval), gc);
    }

    private static Duration parseDuration(String text, String name, Duration fallback) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        if (text.trim().startsWith("-")) {
            throw new IllegalArgumentException(name + " must be positive, not " + text.trim());
        }
        return HumanUnits.parseDuration(text);
    }

    private static void positive(Duration d, String name) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive (for example " + (name.equals("every") ? "15s" : "5m") + ")");
        }
    }
}
