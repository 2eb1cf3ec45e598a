package io.heaptap.profile.census;

import io.heaptap.profile.HumanUnits;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A dump's census as the lines of the text report's last section (the caller escapes them for a terminal). */
public final class DumpCensusText {
    private DumpCensusText() {
    }

    /** The section's heading and summary (the page shows them above its own table): one line when no census was taken. */
    public static List<String> heading(DumpCensus dc) {
        if (!dc.taken()) {
            return List.of("Class census: not taken (" + dc.refusal() + ")");
        }
        ClassCensus c = dc.census();
        return List.of(String.format(Locale.ROOT, "Class census after the forced collection (exact counts, not estimates; the census"
                + " paused the application %d ms after the collection)", c.pauseMillis()), "  " + c.heapLine());
    }

    /** The heading, then a row per class. */
    public static List<String> lines(DumpCensus dc) {
        List<String> lines = new ArrayList<>(heading(dc));
        if (!dc.taken()) {
            return lines;
        }
        ClassCensus c = dc.census();
        lines.add(String.format(Locale.ROOT, "  %12s %7s %14s  %s", "bytes", "share", "instances", "class"));
        for (ClassCount row : c.top()) {
            lines.add(row(row.bytes(), c.totalBytes(), row.instances(), row.name()));
        }
        if (c.restClasses() > 0) {
            lines.add(row(c.rest().bytes(), c.totalBytes(), c.rest().instances(), "(" + c.restClasses() + " other classes)"));
        }
        return lines;
    }

    private static String row(long bytes, long total, long instances, String name) {
        double share = total > 0 ? 100.0 * bytes / total : 0;
        return String.format(Locale.ROOT, "  %12s %6.1f%% %14s  %s", HumanUnits.formatBytes(bytes), share,
                HumanUnits.formatCount(instances), name);
    }
}
