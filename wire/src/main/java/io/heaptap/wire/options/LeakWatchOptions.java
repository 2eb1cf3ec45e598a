package io.heaptap.wire.options;

import io.heaptap.profile.HumanUnits;
import io.heaptap.wire.options.LeakWatchKeys;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * What a leak watch runs for: how long, how often it takes a live snapshot, the sampling interval
 * of its captures, and whether a full collection is forced before each snapshot ({@code gc}: it
 * pauses the application, and proves which objects are live). A watch may outlast one capture's
 * 24 h box: the capture is re-armed. Every door reads one from text through {@link LeakWatchKeys}.
 */
public record LeakWatchOptions(Duration duration, Duration every, long intervalBytes, boolean gc) {
    public static final Duration DEFAULT_DURATION = Duration.ofMinutes(5);
    public static final Duration DEFAULT_EVERY = Duration.ofSeconds(15);
    public static final Duration MAX_DURATION = Duration.ofDays(7);
    /** A snapshot walks the whole live table: more often than this is wasted work. */
    public static final Duration MIN_EVERY = Duration.ofSeconds(1);

    public LeakWatchOptions {
        checkDuration(duration);
        checkEvery(every);
        if (every.compareTo(duration) > 0) {
            throw new IllegalArgumentException("every (" + HumanUnits.formatDuration(every) + ") must not be longer than duration ("
                    + HumanUnits.formatDuration(duration) + "): the watch would take no snapshot to compare");
        }
        CaptureOptions.checkInterval(intervalBytes);
    }

    /** From human text ({@code 5m}, {@code 15s}, {@code 512k}); null, blank or {@code default} means the default. */
    public static LeakWatchOptions parse(String duration, String every, String interval, boolean gc) {
        Map<String, String> given = new HashMap<>();
        given.put(LeakWatchKeys.DURATION.name(), duration);
        given.put(LeakWatchKeys.EVERY.name(), every);
        given.put(LeakWatchKeys.INTERVAL.name(), interval);
        given.put(LeakWatchKeys.GC.name(), Boolean.toString(gc));
        return LeakWatchKeys.parse(given);
    }

    /** A watch's length from text ({@code 5m}), checked against the limits. */
    public static Duration parseDuration(String text) {
        return checkDuration(positive(text, "duration"));
    }

    /** The time between snapshots from text ({@code 15s}), checked against the limits. */
    public static Duration parseEvery(String text) {
        return checkEvery(positive(text, "every"));
    }

    private static Duration positive(String text, String name) {
        if (text.trim().startsWith("-")) {
            throw new IllegalArgumentException(name + " must be positive, not " + text.trim());
        }
        return HumanUnits.parseDuration(text);
    }

    private static Duration checkDuration(Duration duration) {
        positive(duration, "duration");
        if (duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration " + HumanUnits.formatDuration(duration) + " is above the maximum of 7 days");
        }
        return duration;
    }

    private static Duration checkEvery(Duration every) {
        positive(every, "every");
        if (every.compareTo(MIN_EVERY) < 0) {
            throw new IllegalArgumentException("every must be at least 1s, not " + HumanUnits.formatDuration(every));
        }
        return every;
    }

    private static void positive(Duration d, String name) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive (for example " + (name.equals("every") ? "15s" : "5m") + ")");
        }
    }
}
