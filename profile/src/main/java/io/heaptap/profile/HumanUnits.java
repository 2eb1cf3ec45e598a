package io.heaptap.profile;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations and sizes as people type and read them: {@code 30s}, {@code 1m30s}, {@code 500ms},
 * {@code 512k}, {@code 64KiB}, {@code 2g}. Sizes are binary (k = 1024), as the JVM's own flags are.
 */
public final class HumanUnits {
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)");
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?");

    /** Duration units, largest first. */
    private static final java.util.List<String> UNITS = java.util.List.of("d", "h", "m", "s", "ms");

    private HumanUnits() {
    }

    /** Parses {@code 30s}, {@code 2m}, {@code 1h30m}, {@code 500ms}; a bare number is seconds. */
    public static Duration parseDuration(String text) {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (s.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        Matcher m = DURATION_PART.matcher(s);
        long nanos = 0;
        int at = 0;
        int lastRank = -1;
        while (m.find() && m.start() == at) {
            double value = Double.parseDouble(m.group(1));
            double unitNanos = switch (m.group(2)) {
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                default -> 86400e9;
            };
            int rank = UNITS.indexOf(m.group(2));
            if (rank <= lastRank) {
                // 1s1s or 1s1m is a typo, not 2 s: each unit once, the largest first, as in 1h30m
                throw new IllegalArgumentException("cannot read '" + text + "' as a duration: give each unit once, the largest"
                        + " first (examples: 30s, 2m, 1h30m, 500ms)");
            }
            lastRank = rank;
            nanos = Math.addExact(nanos, (long) (value * unitNanos));
            at = m.end();
        }
        if (s.isEmpty() || at != s.length()) {
            throw new IllegalArgumentException("cannot read '" + text + "' as a duration (examples: 30s, 2m, 1h30m, 500ms)");
        }
        return Duration.ofNanos(nanos);
    }

    /** Parses {@code 512k}, {@code 64KiB}, {@code 1m}, {@code 4096}; a bare number is bytes. */
    public static long parseBytes(String text) {
        String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIZE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("cannot read '" + text + "' as a size (examples: 512k, 64KiB, 1m, 4096)");
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        long scale = switch (unit.charAt(0)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1L;
        };
        double bytes = value * scale;
        if (bytes >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        return Math.round(bytes);
    }

    /** 1536 -> "1.5 KiB". */
    public static String formatBytes(double bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = 0;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        String exact = u == 0 ? wholeText(v) : tenthsText(v);
        if (exact != null) {
            return exact + " " + units[u];
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f B", v) : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /**
     * {@code %.0f} of a whole, non-negative number, without java.util.Formatter; null for any other.
     * Option help and a capture's start format sizes in a fresh JVM (the CLI's, and the target's
     * before it answers), where the Formatter's first use loads locale data: 20-50 ms of CPU.
     */
    static String wholeText(double v) {
        return v >= 0 && v < 1e15 && v == Math.rint(v) ? Long.toString((long) v) : null;
    }

    /** {@code %.1f} of a non-negative number that is a whole number of tenths, without java.util.Formatter; null for any other. */
    static String tenthsText(double v) {
        double tenths = v * 10;
        if (!(v >= 0 && tenths < 1e15 && tenths == Math.rint(tenths))) {
            return null;
        }
        long t = (long) tenths;
        return (t / 10) + "." + (t % 10);
    }

    /** 1_234_567 -> "1.2 M"; small counts stay exact. */
    public static String formatCount(double count) {
        double a = Math.abs(count);
        if (a < 10_000) {
            return String.format(Locale.ROOT, "%.0f", count);
        }
        if (a < 10_000_000) {
            return String.format(Locale.ROOT, "%.1f k", count / 1e3);
        }
        if (a < 10_000_000_000d) {
            return String.format(Locale.ROOT, "%.1f M", count / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f G", count / 1e9);
    }

    /** 90.5 s -> "1m30.5s"; short ones in seconds or milliseconds. */
    public static String formatDuration(Duration d) {
        long millis = d.toMillis();
        if (millis < 1000) {
            return millis + "ms";
        }
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
        }
        long minutes = millis / 60_000;
        double seconds = (millis % 60_000) / 1000.0;
        if (minutes < 60) {
            return String.format(Locale.ROOT, "%dm%.0fs", minutes, seconds);
        }
        return String.format(Locale.ROOT, "%dh%02dm", minutes / 60, minutes % 60);
    }

    /** An estimate of bytes with its 95% interval: "12.0 MiB ± 1.1 MiB", or "3.0 MiB [0.4 MiB, 11.0 MiB]" when lopsided. */
    public static String formatBytes(Estimate e) {
        return withInterval(e, HumanUnits::formatBytesOnly);
    }

    /** An estimate of a count with its 95% interval, as {@link #formatBytes(Estimate)}. */
    public static String formatCount(Estimate e) {
        return withInterval(e, HumanUnits::formatCount);
    }

    private static String formatBytesOnly(double bytes) {
        return formatBytes(bytes);
    }

    private static String withInterval(Estimate e, java.util.function.DoubleFunction<String> format) {
        double lo = e.lower();
        double hi = e.upper();
        if (hi - lo <= 0) {
            return format.apply(e.value());
        }
        double below = e.value() - lo;
        double above = hi - e.value();
        if (Math.abs(above - below) <= 0.2 * Math.max(above, below)) {
            return format.apply(e.value()) + " ± " + format.apply((hi - lo) / 2);
        }
        return format.apply(e.value()) + " [" + format.apply(lo) + ", " + format.apply(hi) + "]";
    }
}
