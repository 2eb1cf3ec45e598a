package io.heaptap.session;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.Drops;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.format.LiveSummary;

import java.util.List;

/**
 * The figures a status shows of a profile, computed once from it: every door renders these (the
 * MXBean's attributes and Status composite, {@code /api/status}, the CLI's status), none recomputes
 * them. Small, so a status can keep them while the profile itself goes back to the heap budget.
 *
 * @param window             what the profile covers: "capture" or "continuous sampling"
 * @param samplesDropped     samples lost, without a stack, or whose stack could not be walked
 * @param allocated          the estimated allocated bytes and objects, with their variances
 * @param allocationRate     estimated bytes allocated per second over the window
 * @param live               the live set in its parts (proven, not yet examined, large and not yet examined)
 * @param liveInfo           live tracking's state: tracked objects, keep probability, markings, the hold, the heap
 * @param liveSummary        the live view in lines, as every door shows it
 * @param impossibleFigures  live estimates above what the heap can hold, said in words
 */
public record ProfileFigures(String window, long samplesDropped, AllocationProfile.Totals allocated, double allocationRate,
                             AllocationProfile.LiveTotals live, LiveInfo liveInfo, List<String> liveSummary,
                             List<String> impossibleFigures) {
    public ProfileFigures {
        liveSummary = List.copyOf(liveSummary);
        impossibleFigures = List.copyOf(impossibleFigures);
    }

    public static ProfileFigures of(AllocationProfile profile, String window) {
        Drops d = profile.info().drops();
        return new ProfileFigures(window, d.samplesDropped() + d.samplesWithoutStack() + d.samplesStackError(), profile.totals(),
                profile.allocationRate(), profile.liveTotals(), profile.liveInfo(), LiveSummary.lines(profile, window),
                profile.impossibleFigures());
    }

    /** Estimated bytes of tracked objects no marking has examined yet, large ones included. */
    public double unexaminedBytes() {
        return live.unexamined().bytes().value() + live.heldUnexamined().bytes().value();
    }
}
