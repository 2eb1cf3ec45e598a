package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationProfile.LiveTotals;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.LiveInfo;

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
        if (!live.enabled() && live.tracked() == 0) {
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
        if (live.heapUsedBytes() >= 0) {
            lines.add(String.format(Locale.ROOT, "heap in use: %s of at most %s (garbage included); from %,d tracked objects",
                    HumanUnits.formatBytes(live.heapUsedBytes()), HumanUnits.formatBytes(live.heapMaxBytes()), total.tracked()));
        }
        for (String problem : profile.impossibleFigures()) {
            lines.add("IMPOSSIBLE FIGURE: " + problem);
        }
        return lines;
    }
}
