package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationProfile.LiveTotals;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.LiveHold;
import io.heaptap.profile.LiveInfo;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The live set in a few lines, the same wherever it is shown (text report, MBean, {@code heaptap
 * status}, {@code /api/status}, the web page): proven live apart from not yet examined, each with
 * its 95% interval, the markings behind the proof, and any figure the heap cannot hold.
 */
public final class LiveSummary {
    private LiveSummary() {
    }

    /** Empty when live tracking never ran. */
    public static List<String> lines(AllocationProfile profile, String window) {
        LiveInfo live = profile.liveInfo();
        List<String> lines = new ArrayList<>();
        LiveHold hold = live.hold();
        if (!live.enabled() && live.tracked() == 0) {
            if (hold.strict()) {
                lines.add("live tracking off: on " + hold.collector() + " heaptap's weak references keep young garbage until a"
                        + " whole-heap marking (continuous sampling leaves it off there); a capture tracks under a bound of"
                        + " " + percent(hold.share()) + " of the heap: heaptap start <pid>");
            }
            return lines;
        }
        LiveTotals total = profile.liveTotals();
        lines.add(String.format(Locale.ROOT, "proven live: %s in %s objects (still referenced after a whole-heap marking that"
                + " began after their allocation)", HumanUnits.formatBytes(total.proven().bytes()),
                HumanUnits.formatCount(total.proven().objects())));
        String large = total.heldUnexamined().tracked() == 0 ? ""
                : String.format(Locale.ROOT, "; and %,d objects (%s) counted as they are, not upscaled: heaptap's weak reference"
                        + " may be all that keeps them (G1 humongous objects; every object under generational ZGC)",
                        total.heldUnexamined().tracked(),
                        HumanUnits.formatBytes(total.heldUnexamined().bytes().value()));
        lines.add(String.format(Locale.ROOT, "not yet examined: %s in %s objects (allocated since the last marking: may be garbage)%s",
                HumanUnits.formatBytes(total.unexamined().bytes()), HumanUnits.formatCount(total.unexamined().objects()), large));
        lines.add(live.markings().describe(window));
        if (hold.byteBudget() > 0 || hold.thinned()) {
            lines.add(holdLine(hold));
        }
        if (hold.tooThin(live.tracked())) {
            lines.add(String.format(Locale.ROOT, "too thin to say much: %,d tracked objects after the bound; for more, watch longer,"
                    + " force a marking (--gc) so tracked objects are proven and leave the bound, or ask for a larger bound"
                    + " (--live-bytes 5%%, at most 25%% of the heap)", live.tracked()));
        }
        long emptied = profile.sites().stream().filter(s -> s.live().emptiedByBound()).count();
        if (emptied > 0) {
            lines.add(String.format(Locale.ROOT, "the bound let go of everything it tracked at %,d site%s: %s live figures are"
                    + " upper ends only; for figures there, force a marking (--gc) or ask for a larger bound (--live-bytes)",
                    emptied, emptied == 1 ? "" : "s", emptied == 1 ? "its" : "their"));
        }
        if (live.heapUsedBytes() >= 0) {
            lines.add(String.format(Locale.ROOT, "heap in use: %s of at most %s (garbage included); from %,d tracked objects",
                    HumanUnits.formatBytes(live.heapUsedBytes()), HumanUnits.formatBytes(live.heapMaxBytes()), total.tracked()));
        }
        for (String problem : profile.impossibleFigures()) {
            lines.add("IMPOSSIBLE FIGURE: " + problem);
        }
        return lines;
    }

    /**
     * What tracking holds back in one line: {@code tracking holds 1.2 MiB not yet examined, bound 3.8 MiB (1.5% of the
     * heap, strict: ZGC (generational) keeps weakly referenced young garbage); thinned by it 14 times (212 objects let go)}.
     */
    static String holdLine(LiveHold h) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "tracking holds %s not yet examined, bound %s",
                HumanUnits.formatBytes(h.unexaminedBytes()), h.byteBudget() > 0 ? HumanUnits.formatBytes(h.byteBudget()) : "none"));
        if (h.share() > 0) {
            line.append(" (").append(percent(h.share())).append(" of the heap");
            if (h.strict()) {
                line.append(", strict: ").append(h.collector()).append(" keeps weakly referenced young garbage");
            }
            line.append(')');
        }
        if (h.byteThinnings() > 0) {
            line.append(String.format(Locale.ROOT, "; thinned by it %,d times (%,d objects let go)", h.byteThinnings(),
                    h.byteThinnedEntries()));
        }
        if (h.oversize() > 0) {
            line.append(String.format(Locale.ROOT, "; %,d sampled objects larger than the bound not tracked", h.oversize()));
        }
        if (h.releases() > 0) {
            line.append(String.format(Locale.ROOT, "; HEAP CRITICAL %,d times: let go of %,d objects not yet examined",
                    h.releases(), h.releasedEntries()));
        }
        if (h.byteThinnedEntries() > 0 || h.releasedEntries() > 0) {
            line.append("; the live figures' upper ends count what was let go: it may still be live");
        }
        return line.toString();
    }

    private static String percent(double share) {
        return new BigDecimal(share * 100).round(new MathContext(3)).stripTrailingZeros().toPlainString() + "%";
    }
}
