package io.heaptap.profile.census;

import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.format.TerminalText;

import java.util.Locale;

/** A census asked for on its own, as text: the heap after the collection, the classes holding it, the rest. */
public final class CensusText {
    private CensusText() {
    }

    public static String of(CensusReading reading, long pid) {
        ClassCensus c = reading.census();
        StringBuilder sb = new StringBuilder();
        sb.append(TerminalText.format(Locale.ROOT, "pid %d: class census after a forced whole-heap collection (exact counts, not estimates;"
                + " the application paused %d ms for the collection and %d ms for the census)%n", pid, reading.collectionPauseMillis(),
                c.pauseMillis()));
        sb.append(TerminalText.format(Locale.ROOT, "  %s%s%n", c.heapLine(), reading.heaptapSamplesBytes() == 0 ? ""
                : ", leaving out " + HumanUnits.formatBytes(reading.heaptapSamplesBytes()) + " of heaptap's samples no marking had examined"));
        sb.append(TerminalText.format(Locale.ROOT, "  %12s %7s %14s  %s%n", "bytes", "share", "instances", "class"));
        for (ClassCount row : c.top()) {
            sb.append(row(row.bytes(), c.totalBytes(), row.instances(), TerminalText.escape(row.name())));
        }
        if (c.restClasses() > 0) {
            sb.append(row(c.rest().bytes(), c.totalBytes(), c.rest().instances(), "(" + c.restClasses() + " other classes)"));
        }
        return sb.toString();
    }

    private static String row(long bytes, long total, long instances, String name) {
        double share = total > 0 ? 100.0 * bytes / total : 0;
        return TerminalText.format(Locale.ROOT, "  %12s %6.1f%% %14s  %s%n", HumanUnits.formatBytes(bytes), share,
                HumanUnits.formatCount(instances), name);
    }
}
