package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationProfile.LiveTotals;
import io.heaptap.profile.AllocationProfile.Totals;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.SamplingCost;
import io.heaptap.profile.TopSites;
import io.heaptap.profile.census.DumpCensusText;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The jcmd-style table for a terminal: top sites and top types, estimates and raw sample counts. */
final class TextReport implements ProfileWriter {
    static final int TOP_SITES = 20;
    static final int TOP_TYPES = 15;
    static final int FRAMES_PER_SITE = 5;

    @Override
    public void write(AllocationProfile profile, OutputStream out) throws IOException {
        PrintWriter w = new TerminalPrintWriter(out);  // names from the target are escaped in every printf
        CaptureInfo info = profile.info();
        Totals total = profile.totals();

        w.printf(Locale.ROOT, "heaptap allocation profile: pid %d, %s %s%n", info.target().pid(), info.target().vmName(),
                info.target().javaVersion());
        w.printf(Locale.ROOT, "%s%n", GcText.header(info.gc()));
        w.printf(Locale.ROOT, "capture: %s from %s, interval %s%s, depth %d, %,d samples (%,.0f/s)%n",
                HumanUnits.formatDuration(Duration.ofNanos(info.durationNanos())), info.startedAt(),
                info.intervals().describe(), info.intervals().adaptive()
                        ? String.format(Locale.ROOT, " (adaptive, target %,d samples/s)", info.intervals().targetRate()) : "",
                info.stackDepth(), info.samples(), info.samplesPerSecond());
        if (info.samplingCost() != SamplingCost.UNKNOWN) {
            w.printf(Locale.ROOT, "heaptap's cost: %s%n", info.samplingCost().describe());
        }
        w.printf(Locale.ROOT, "dropped: %s%n", describe(info.drops()));
        for (String warning : info.warnings()) {
            w.printf(Locale.ROOT, "warning: %s%n", warning);
        }
        w.printf(Locale.ROOT, "estimated allocated: %s in %s objects (estimates are Poisson-weighted, with 95%% intervals; samples are raw counts)%n",
                HumanUnits.formatBytes(total.bytes()), HumanUnits.formatCount(total.estimatedObjects()));

        writeGc(profile, w);

        w.println();
        w.println("Top allocation sites");
        w.printf(Locale.ROOT, "%4s  %28s  %6s  %12s  %9s  %s%n", "rank", "est. bytes [95%]", "%", "est. objects", "samples",
                "type / allocated at");
        List<TopSites.Row> sites = TopSites.byAllocatedBytes(profile, TOP_SITES);
        for (TopSites.Row row : sites) {
            AllocationSite s = row.site();
            w.printf(Locale.ROOT, "%4d  %28s  %5.1f%%  %12s  %,9d  %s%n", row.rank(), HumanUnits.formatBytes(s.allocatedBytes()),
                    row.percent(), HumanUnits.formatCount(s.estimatedObjects()),
                    s.samples(), s.type());
            for (String frame : topFrames(s)) {
                w.printf(Locale.ROOT, "%69s  %s%n", "", frame);
            }
        }
        if (sites.isEmpty()) {
            w.println("  (no samples: nothing was allocated, or the capture was too short for this interval)");
        }

        w.println();
        w.println("Top types");
        w.printf(Locale.ROOT, "%4s  %12s  %6s  %12s  %9s  %s%n", "rank", "est. bytes", "%", "est. objects", "samples", "type");
        List<Totals> types = profile.typesByBytes();
        for (int i = 0; i < Math.min(TOP_TYPES, types.size()); i++) {
            Totals t = types.get(i);
            w.printf(Locale.ROOT, "%4d  %12s  %5.1f%%  %12s  %,9d  %s%n", i + 1, HumanUnits.formatBytes(t.estimatedBytes()),
                    percent(t.estimatedBytes(), total.estimatedBytes()), HumanUnits.formatCount(t.estimatedObjects()),
                    t.samples(), t.name());
        }
        writeLive(profile, w);
        if (profile.census() != null) {
            w.println();
            for (String line : DumpCensusText.lines(profile.census())) {
                w.printf(Locale.ROOT, "%s%n", line);
            }
        }
        w.flush();
    }

    /** At the top: whether allocation is worth chasing at all. */
    private static void writeGc(AllocationProfile profile, PrintWriter w) {
        GcCost gc = profile.info().gc();
        w.println();
        w.println("GC during the capture");
        gc.alarm().ifPresent(alarm -> w.printf(Locale.ROOT, "  >> %s%n", alarm));
        for (String line : GcText.lines(gc, profile.allocationRate())) {
            w.printf(Locale.ROOT, "  %s%n", line);
        }
    }

    private static void writeLive(AllocationProfile profile, PrintWriter w) {
        LiveInfo live = profile.liveInfo();
        w.println();
        if (!live.enabled() && live.tracked() == 0) {
            w.println("Live objects: not tracked (live tracking was off for this capture)");
            return;
        }
        LiveTotals total = profile.liveTotals();
        w.printf(Locale.ROOT, "Live objects now (%,d tracked of a %,d budget; keep-probability %s; %d GCs seen%s%s)%n",
                total.tracked(), live.budget(), keep(live), live.gcCount(),
                live.filter().isNone() ? "" : "; only objects " + describe(live.filter()),
                live.gcForced() ? "; after a forced full GC" : "");
        for (String line : LiveSummary.lines(profile, "capture")) {
            w.printf(Locale.ROOT, "  %s%n", line);
        }
        w.println();
        w.println("Top live sites (proven first; intervals are 95%)");
        w.printf(Locale.ROOT, "%4s  %28s  %22s  %8s  %-22s  %-14s  %s%n", "rank", "proven live", "not yet examined", "tracked",
                "age min/median/max", "GCs min/med/max", "type / allocated at");
        List<TopSites.Row> sites = TopSites.byLiveBytes(profile, TOP_SITES);
        for (TopSites.Row row : sites) {
            AllocationSite s = row.site();
            LiveStats l = s.live();
            w.printf(Locale.ROOT, "%4d  %28s  %22s  %,8d  %-22s  %-14s  %s%s%n", row.rank(), HumanUnits.formatBytes(l.proven().bytes()),
                    HumanUnits.formatBytes(row.unexaminedBytes()), l.tracked(),
                    HumanUnits.formatDuration(l.minAge()) + "/" + HumanUnits.formatDuration(l.medianAge()) + "/"
                            + HumanUnits.formatDuration(l.maxAge()),
                    l.minGcs() + "/" + l.medianGcs() + "/" + l.maxGcs(), s.type(),
                    profile.isImpossible(l) ? "  (IMPOSSIBLE: above the maximum heap)"
                            : l.emptiedByBound() ? "  (the bound let go of all it tracked here: an upper end only)" : "");
            for (String frame : topFrames(s)) {
                w.printf(Locale.ROOT, "%121s  %s%n", "", frame);
            }
        }
        if (sites.isEmpty()) {
            w.println("  (no tracked object is alive" + (live.filter().isNone() ? "" : " and passes the filter") + ")");
        }
        w.println();
        w.println("Top live types");
        w.printf(Locale.ROOT, "%4s  %28s  %22s  %8s  %s%n", "rank", "proven live", "not yet examined", "tracked", "type");
        List<LiveTotals> types = profile.typesByLiveBytes();
        for (int i = 0; i < Math.min(TOP_TYPES, types.size()); i++) {
            LiveTotals t = types.get(i);
            w.printf(Locale.ROOT, "%4d  %28s  %22s  %,8d  %s%n", i + 1, HumanUnits.formatBytes(t.proven().bytes()),
                    HumanUnits.formatBytes(t.unexamined().bytes().value() + t.heldUnexamined().bytes().value()), t.tracked(),
                    t.name());
        }
    }

    private static String keep(LiveInfo live) {
        return live.thinnings() == 0 ? "1, never thinned"
                : String.format(Locale.ROOT, "%.4g after %d thinnings", live.keepProbability(), live.thinnings());
    }

    static String describe(LiveFilter f) {
        List<String> parts = new ArrayList<>();
        if (!f.minAge().isZero()) {
            parts.add("at least " + HumanUnits.formatDuration(f.minAge()) + " old");
        }
        if (f.minGcs() > 0) {
            parts.add("that survived at least " + f.minGcs() + " GC" + (f.minGcs() == 1 ? "" : "s"));
        }
        return String.join(" and ", parts);
    }

    private static List<String> topFrames(AllocationSite site) {
        List<String> lines = new ArrayList<>();
        for (Frame f : site.stack().subList(0, Math.min(FRAMES_PER_SITE, site.stack().size()))) {
            lines.add("at " + f.displayName());
        }
        if (site.stack().size() > FRAMES_PER_SITE || site.truncated()) {
            lines.add("...");
        }
        return lines;
    }

    private static double percent(double part, double whole) {
        return whole <= 0 ? 0 : 100.0 * part / whole;
    }

    static String describe(Drops d) {
        if (!d.anyLoss()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        add(parts, d.samplesDropped(), "samples lost (site table full)");
        add(parts, d.samplesWithoutStack(), "samples without a stack (no Java frames, or the stack table full)");
        add(parts, d.samplesStackError(), "samples without stack (stack walk failed)");
        add(parts, d.samplesTruncated(), "stacks cut at the depth limit");
        add(parts, d.classesDropped(), "samples under [other classes]");
        add(parts, d.methodsUnresolved(), "methods unresolved");
        return String.join(", ", parts);
    }

    private static void add(List<String> parts, long count, String what) {
        if (count > 0) {
            parts.add(String.format(Locale.ROOT, "%,d %s", count, what));
        }
    }
}
