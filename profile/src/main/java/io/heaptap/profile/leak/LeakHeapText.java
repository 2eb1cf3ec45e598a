package io.heaptap.profile.leak;

import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassGrowth;
import io.heaptap.profile.census.HeapAccount;
import io.heaptap.profile.census.HeapReading;
import io.heaptap.profile.census.HeapSlack;
import io.heaptap.profile.census.TimeToOom;
import io.heaptap.profile.format.TerminalText;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The whole-heap part of the leak report as text: the heap after GC accounted for, class growth, time to OOM. */
final class LeakHeapText {
    /** Classes listed by what the sites leave unexplained. */
    static final int CLASSES = 10;

    private LeakHeapText() {
    }

    static void append(StringBuilder sb, HeapSection h) {
        if (h == null) {
            return;
        }
        String nl = System.lineSeparator();
        if (h.last() == null) {
            sb.append("class census: none taken: ").append(TerminalText.escape(h.refusal())).append(nl).append(nl);
            return;
        }
        ClassCensus last = h.last();
        HeapAccount a = h.account();
        sb.append(TerminalText.format(Locale.ROOT, "the whole heap after the last forced collection (%s into the watch; %d class census%s, exact,"
                        + " the last paused %s):%n", duration(last.atMillis()), h.censuses(), h.censuses() == 1 ? "" : "es",
                duration(last.pauseMillis())));
        sb.append(TerminalText.format(Locale.ROOT, "  %s%s%n", last.heapLine(), h.heaptapSamplesBytes() == 0 ? ""
                : ", leaving out " + HumanUnits.formatBytes(h.heaptapSamplesBytes()) + " of heaptap's samples no marking had examined"
                + " (this collector's census counts what only heaptap's weak references reach)"));
        sb.append(TerminalText.format(Locale.ROOT, "  the sampled sites explain %s (proven live, estimated); the census's classes name the rest,"
                        + " %s: present before heaptap came, or not explained by the sampled sites%n",
                HumanUnits.formatBytes(a.sampledBytes()), HumanUnits.formatBytes(a.unexplainedBytes())));
        sb.append(TerminalText.format(Locale.ROOT, "  accounted for: %s, %.1f%% of the heap after GC%n", HumanUnits.formatBytes(a.accountedBytes()),
                100 * a.accountedShare()));
        if (a.notLiveWorthSaying()) {
            sb.append(TerminalText.format(Locale.ROOT, "  the other %s (%.1f%%) of the collector's figure holds no live object (the census counts"
                    + " every one): space the collector keeps in use beyond them, such as the pages ZGC did not compact, which it counts"
                    + " whole with their garbage, or what the application allocated while a concurrent collector ran%n", HumanUnits.formatBytes(a.notLiveBytes()), 100.0 * a.notLiveBytes() / a.heapAfterGcBytes()));
        }
        sb.append(TerminalText.format(Locale.ROOT, "  %12s %12s %12s  %s%n", "not explained", "census", "instances", "class"));
        double otherUnexplained = a.restUnexplainedBytes();
        int others = a.restClasses();
        for (int i = 0; i < a.classes().size(); i++) {
            HeapAccount.Unexplained u = a.classes().get(i);
            if (i >= CLASSES) {
                otherUnexplained += u.unexplainedBytes();
                others++;
                continue;
            }
            sb.append(TerminalText.format(Locale.ROOT, "  %12s %12s %12s  %s%n", HumanUnits.formatBytes(u.unexplainedBytes()),
                    HumanUnits.formatBytes(u.censusBytes()), HumanUnits.formatCount(u.instances()), TerminalText.escape(u.name())));
        }
        sb.append(TerminalText.format(Locale.ROOT, "  %12s %12s %12s  (%d other classes)%n", HumanUnits.formatBytes(otherUnexplained), "", "",
                others));
        String classes = classesLine(h);
        if (!classes.isEmpty()) {
            sb.append(classes).append(nl);
        }
        if (!h.growth().isEmpty()) {
            ClassGrowth first = h.growth().get(0);
            sb.append(TerminalText.format(Locale.ROOT, "class growth between the first and last census (%s apart, exact); per site its share of"
                    + " the class's sampled growth [95%%]:%n", duration(Math.round(first.minutes() * 60_000))));
            for (ClassGrowth g : h.growth()) {
                sb.append(TerminalText.format(Locale.ROOT, "  %13s/min  %s (%s to %s, %+d instances)%n", signed(g.bytesPerMinute()),
                        TerminalText.escape(g.name()), HumanUnits.formatBytes(g.bytesBefore()), HumanUnits.formatBytes(g.bytesAfter()),
                        g.instancesGrowth()));
                for (ClassGrowth.SiteShare s : g.sites()) {
                    sb.append(TerminalText.format(Locale.ROOT, "      %s/min [%s, %s]  %.0f%% [%.0f%%, %.0f%%]  at %s%n", signed(s.bytesPerMinute()),
                            HumanUnits.formatBytes(s.bytesPerMinuteLow()), HumanUnits.formatBytes(s.bytesPerMinuteHigh()), 100 * s.share(),
                            100 * s.shareLow(), 100 * s.shareHigh(), TerminalText.escape(s.allocatedAt())));
                }
            }
        }
        sb.append(timeToOom(h.timeToOom(), h.heapAfterGc())).append(nl).append(nl);
    }

    /**
     * One line when the censuses counted fewer classes at the last than at the first: classes unloaded (or left with
     * no instances) in between. Their bytes left the heap; growth lists only classes named in both censuses that grew,
     * so none of them shows as growth, negative or not. Empty when the count did not fall.
     */
    static String classesLine(HeapSection h) {
        if (h.censuses() < 2 || h.first() == null || h.last().classCount() >= h.first().classCount()) {
            return "";
        }
        return String.format(Locale.ROOT, "  classes with live objects: %,d at the first census, %,d at the last: %,d fewer (unloaded, or"
                + " left with no instances); their bytes left the heap, and no class growth counts them", h.first().classCount(),
                h.last().classCount(), h.first().classCount() - h.last().classCount());
    }

    /** One line: the projected time to OOM, or why there is none. */
    static String timeToOom(TimeToOom t, List<TimeToOom.Point> readings) {
        if (t == null && readings.size() >= TimeToOom.MIN_POINTS) {
            // Enough readings, too few that compacted everything: the line follows only those (HeapSlack).
            return "time to OOM: needs " + TimeToOom.MIN_POINTS + " forced collections that compacted the whole heap ("
                    + readings.stream().filter(TimeToOom.Point::compacted).count() + " of " + readings.size() + " so far): this"
                    + " collector compacts fully at one full collection in several and leaves dead space at the others; watch longer";
        }
        if (t == null) {
            return "time to OOM: needs the heap after " + TimeToOom.MIN_POINTS + " forced collections (" + readings.size() + " so far)";
        }
        String slope = String.format(Locale.ROOT, "%s/min [%s, %s] over %d forced collections", signed(t.bytesPerMinute()),
                signed(t.bytesPerMinuteLow()), signed(t.bytesPerMinuteHigh()), t.points());
        HeapReading r = t.reading();
        if (!t.trend()) {
            return "time to OOM: no trend in " + r.words() + " (" + slope + ": the interval includes 0)" + r.why();
        }
        HeapSlack s = t.slack();
        String deadWood = s.deadWoodShare() <= 0 ? "" : String.format(Locale.ROOT, "; the latest allows for up to %.0f%% of it being"
                + " garbage the forced collections left in place, which the collection before an OutOfMemoryError frees",
                100 * s.deadWoodShare());
        String reserve = s.reserveShare() <= 0 ? "" : String.format(Locale.ROOT, "; the earliest allows for the collector failing with"
                + " %.0f%% of the heap still free, in pages it does not compact", 100 * s.reserveShare());
        return String.format(Locale.ROOT, "time to OOM: %s [%s, %s], %s growing by %s toward the heap's maximum of %s%s%s%s",
                duration(t.millis()), duration(t.millisLow()), duration(t.millisHigh()), r.words(), slope,
                HumanUnits.formatBytes(t.maxHeapBytes()), r.why(), deadWood, reserve);
    }

    private static String signed(double bytes) {
        return (bytes >= 0 ? "+" : "-") + HumanUnits.formatBytes(Math.abs(bytes));
    }

    private static String duration(long millis) {
        return HumanUnits.formatDuration(Duration.ofMillis(Math.max(0, millis)));
    }
}
