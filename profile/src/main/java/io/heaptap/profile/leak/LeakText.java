package io.heaptap.profile.leak;

import io.heaptap.profile.Frame;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.format.TerminalText;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The leak ranking as a terminal table: one row per site, its allocating frames, and the evidence in words. */
public final class LeakText {
    private static final int FRAMES = 3;

    private LeakText() {
    }

    public static String of(LeakReport report, int rows) {
        StringBuilder sb = new StringBuilder();
        header(sb, report.watch());
        LeakHeapText.append(sb, report.heap());
        long undecided = report.sites().stream().filter(s -> s.evidence().verdict() == Verdict.UNDECIDED).count();
        sb.append(TerminalText.format(Locale.ROOT, "%d leak suspect%s, %d undecided, among %d sites (live = proven live: still referenced after"
                        + " a whole-heap marking; estimates are Poisson-weighted with 95%% intervals; ages are of sampled objects)%n%n",
                report.suspects(), report.suspects() == 1 ? "" : "s", undecided, report.sites().size()));
        sb.append(table(report.top(rows), true, report.heap()));
        return sb.toString();
    }

    static void header(StringBuilder sb, LeakWatchInfo w) {
        sb.append(TerminalText.format(Locale.ROOT, "heaptap leaks: pid %d, watched %s of %s, a snapshot every %s, %d snapshots, %d collections, interval %s%n",
                w.pid(), duration(w.elapsedMillis()), duration(w.durationMillis()), duration(w.everyMillis()), w.snapshots(),
                w.gcs(), HumanUnits.formatBytes(w.intervalBytes())));
        sb.append(TerminalText.format(Locale.ROOT, "whole-heap markings: %d in the watch%s%s%n", w.markings(),
                w.lastMarkingAt() == null ? ", none since tracking began" : ", the last completed at " + w.lastMarkingAt(),
                w.markingLimitation().isEmpty() ? "" : " (" + w.markingLimitation() + ")"));
        if (w.gcForced()) {
            sb.append(TerminalText.format(Locale.ROOT, "forced full collections (--gc): %d, the application paused %s at most, %s the last%n",
                    w.pausesMillis().size(), duration(w.maxPauseMillis()),
                    w.pausesMillis().isEmpty() ? "-" : duration(w.pausesMillis().get(w.pausesMillis().size() - 1))));
        } else if (w.markings() == 0 && w.snapshots() > 0) {
            sb.append("no whole-heap marking yet: no site can be called a leak or a cache; the undecided sites are ranked by unproven"
                    + " evidence (growth of what is tracked of them, collections survived); watch longer, or use --gc (above)")
                    .append(System.lineSeparator());
        }
        sb.append("state: ").append(w.state());
        if (!w.endReason().isEmpty()) {
            sb.append(" (").append(w.endReason()).append(')');
        }
        sb.append(System.lineSeparator());
        HistoryFootprint h = w.history();
        if (w.sitesLeftOut() > 0 || h.bounded()) {
            sb.append(TerminalText.format(Locale.ROOT, "history on the target's heap: %s of its %s bound; %d sites followed (at most %d),"
                    + " each at most %d points over the whole watch (neighbouring snapshots merged beyond that)%s%n", HumanUnits.formatBytes(h.bytes()),
                    HumanUnits.formatBytes(h.boundBytes()), h.sites(), h.maxSites(), h.pointsPerSite(),
                    w.sitesLeftOut() > 0 ? "; sites left out at the last snapshot: " + w.sitesLeftOut() : ""));
        }
        for (String warning : w.warnings()) {
            sb.append("warning: ").append(TerminalText.escape(warning)).append(System.lineSeparator());
        }
    }

    /** The table alone; {@code details} adds the frames and the reason under each row. */
    public static String table(List<LeakReport.RankedSite> sites, boolean details) {
        return table(sites, details, null);
    }

    /** The table; with {@code heap}, a site's part of its class's exact growth goes under its row too. */
    static String table(List<LeakReport.RankedSite> sites, boolean details, HeapSection heap) {
        StringBuilder sb = new StringBuilder();
        sb.append(TerminalText.format(Locale.ROOT, "%4s  %-13s %5s %27s %11s %13s %9s %9s %5s  %s%n", "rank", "verdict", "conf",
                "proven live [95%]", "unexamined", "growth/min", "oldest", "median", "GCs", "type / allocated at"));
        for (LeakReport.RankedSite s : sites) {
            LeakEvidence e = s.evidence();
            sb.append(TerminalText.format(Locale.ROOT, "%4d  %-13s %4.0f%% %27s %11s %13s %9s %9s %5d  %s%n", s.rank(), e.verdict().label(),
                    100 * e.confidence(), interval(e), HumanUnits.formatBytes(e.unexaminedBytes()), signed(e.bytesPerMinute()),
                    duration(e.maxAgeMillis()), duration(e.medianAgeMillis()), e.medianGcs(), e.site().type()));
            if (details) {
                List<Frame> stack = e.site().stack();
                for (int i = 0; i < Math.min(FRAMES, stack.size()); i++) {
                    sb.append(" ".repeat(106)).append("at ").append(TerminalText.escape(stack.get(i).displayName())).append(System.lineSeparator());
                }
                sb.append("        ").append(TerminalText.escape(e.reason())).append(System.lineSeparator());
                String growth = classGrowth(heap, e.site());
                if (!growth.isEmpty()) {
                    sb.append("        ").append(TerminalText.escape(growth)).append(System.lineSeparator());
                }
            }
        }
        return sb.toString();
    }

    /** "class Order grew +6.0 MiB/min (exact, census); this site's part ..." or empty. */
    static String classGrowth(HeapSection heap, SiteKey site) {
        if (heap == null) {
            return "";
        }
        for (io.heaptap.profile.census.ClassGrowth g : heap.growth()) {
            if (!g.name().equals(site.type())) {
                continue;
            }
            for (io.heaptap.profile.census.ClassGrowth.SiteShare s : g.sites()) {
                if (s.allocatedAt().equals(site.allocatedAt())) {
                    return String.format(Locale.ROOT, "class %s grew %s/min (exact, by census); this site's part %s/min [%s, %s],"
                                    + " %.0f%% [%.0f%%, %.0f%%] of the class's sampled growth", g.name(), signed(g.bytesPerMinute()),
                            signed(s.bytesPerMinute()), HumanUnits.formatBytes(s.bytesPerMinuteLow()),
                            HumanUnits.formatBytes(s.bytesPerMinuteHigh()), 100 * s.share(), 100 * s.shareLow(), 100 * s.shareHigh());
                }
            }
        }
        return "";
    }

    private static String interval(LeakEvidence e) {
        if (e.liveBytesHigh() <= e.liveBytesLow()) {
            return HumanUnits.formatBytes(e.liveBytes());
        }
        return HumanUnits.formatBytes(e.liveBytes()) + " [" + HumanUnits.formatBytes(e.liveBytesLow()) + ", "
                + HumanUnits.formatBytes(e.liveBytesHigh()) + "]";
    }

    private static String signed(double bytesPerMinute) {
        return (bytesPerMinute >= 0 ? "+" : "-") + HumanUnits.formatBytes(Math.abs(bytesPerMinute));
    }

    private static String duration(long millis) {
        return HumanUnits.formatDuration(Duration.ofMillis(Math.max(0, millis)));
    }
}
