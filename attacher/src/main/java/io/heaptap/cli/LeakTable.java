package io.heaptap.cli;

import io.heaptap.jmx.LeakRow;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.format.TerminalText;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The leak ranking on a terminal, redrawn in place (cursor up, clear to the end of the screen) on
 * stderr, drawn only when a person is watching a terminal; stdout keeps only the report.
 */
final class LeakTable {
    static final int ROWS = 10;
    private final PrintStream err = System.err;
    private final boolean enabled = System.console() != null;
    private int drawnLines;

    boolean enabled() {
        return enabled;
    }

    void draw(String status, List<LeakRow> rows) {
        if (!enabled) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        if (drawnLines > 0) {
            sb.append("\033[").append(drawnLines).append("F\033[J");
        }
        sb.append(status).append('\n');
        int lines = 1;
        if (!rows.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "%4s  %-13s %5s %11s %12s %8s %8s  %s%n", "rank", "verdict", "conf", "est. live",
                    "growth/min", "oldest", "median", "type / allocated at"));
            lines++;
        }
        for (LeakRow r : rows) {
            sb.append(TerminalText.format(Locale.ROOT, "%4d  %-13s %4.0f%% %11s %12s %8s %8s  %s at %s%n", r.getRank(), r.getVerdict(),
                    100 * r.getConfidence(), HumanUnits.formatBytes(r.getEstimatedLiveBytes()),
                    (r.getLiveBytesPerMinute() >= 0 ? "+" : "-") + HumanUnits.formatBytes(Math.abs(r.getLiveBytesPerMinute())),
                    age(r.getMaxAgeMillis()), age(r.getMedianAgeMillis()), r.getType(), r.getAllocatedAt()));
            lines++;
        }
        err.print(sb);
        err.flush();
        drawnLines = lines;
    }

    void clear() {
        if (enabled && drawnLines > 0) {
            err.print("\033[" + drawnLines + "F\033[J");
            err.flush();
            drawnLines = 0;
        }
    }

    private static String age(long millis) {
        return HumanUnits.formatDuration(Duration.ofMillis(millis));
    }
}
