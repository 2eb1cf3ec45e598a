package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationProfile.Totals;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.HumanUnits;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
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
        PrintWriter w = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8));
        CaptureInfo info = profile.info();
        Totals total = profile.totals();

        w.printf(Locale.ROOT, "heaptap allocation profile: pid %d, %s %s%n", info.target().pid(), info.target().vmName(),
                info.target().javaVersion());
        w.printf(Locale.ROOT, "capture: %s from %s, interval %s, depth %d, %,d samples%n",
                HumanUnits.formatDuration(Duration.ofNanos(info.durationNanos())), info.startedAt(),
                HumanUnits.formatBytes(info.intervalBytes()), info.stackDepth(), info.samples());
        w.printf(Locale.ROOT, "dropped: %s%n", describe(info.drops()));
        for (String warning : info.warnings()) {
            w.printf(Locale.ROOT, "warning: %s%n", warning);
        }
        w.printf(Locale.ROOT, "estimated allocated: %s in %s objects (estimates are Poisson-weighted; samples are raw counts)%n",
                HumanUnits.formatBytes(total.estimatedBytes()), HumanUnits.formatCount(total.estimatedObjects()));

        w.println();
        w.println("Top allocation sites");
        w.printf(Locale.ROOT, "%4s  %12s  %6s  %12s  %9s  %s%n", "rank", "est. bytes", "%", "est. objects", "samples",
                "type / allocated at");
        List<AllocationSite> sites = profile.sitesByBytes();
        for (int i = 0; i < Math.min(TOP_SITES, sites.size()); i++) {
            AllocationSite s = sites.get(i);
            w.printf(Locale.ROOT, "%4d  %12s  %5.1f%%  %12s  %,9d  %s%n", i + 1, HumanUnits.formatBytes(s.estimatedBytes()),
                    percent(s.estimatedBytes(), total.estimatedBytes()), HumanUnits.formatCount(s.estimatedObjects()),
                    s.samples(), s.type());
            for (String frame : topFrames(s)) {
                w.printf(Locale.ROOT, "%53s  %s%n", "", frame);
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
        w.flush();
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
        add(parts, d.samplesWithoutStack(), "samples without stack (stack table full)");
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
