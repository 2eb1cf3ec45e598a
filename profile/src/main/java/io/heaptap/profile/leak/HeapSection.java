package io.heaptap.profile.leak;

import io.heaptap.profile.Estimate;
import io.heaptap.profile.census.CensusHistory;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassGrowth;
import io.heaptap.profile.census.HeapAccount;
import io.heaptap.profile.census.TimeToOom;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole heap beside the sampled sites, from the class censuses taken at the collections heaptap
 * forced ({@code --gc}): the last census, the heap after that collection accounted for (sites, then the
 * census's classes for the rest), the exact growth of classes between the first and the last census
 * with its attribution to sites, and the projected time to OOM from the heap after each collection.
 *
 * @param censuses  censuses taken in the watch (a count)
 * @param first     the first census, null before any
 * @param last      the last census, null before any
 * @param account   the heap after the last forced collection accounted for, null before any census
 * @param growth    classes that grew between the first and last census, fastest first
 * @param timeToOom the projection, null with fewer than {@value TimeToOom#MIN_POINTS} collections read
 * @param heapAfterGc the heap in use after each forced collection, oldest first: the collector's figure and the census's
 * @param refusal   why the last census was refused, empty when none was
 * @param heaptapSamplesBytes what the last census counted of heaptap's samples no marking had examined, and every figure
 *                  here leaves out (ZGC and Shenandoah, whose census follows weak references; 0 elsewhere)
 */
public record HeapSection(int censuses, ClassCensus first, ClassCensus last, HeapAccount account, List<ClassGrowth> growth,
                          TimeToOom timeToOom, List<TimeToOom.Point> heapAfterGc, String refusal, long heaptapSamplesBytes) {

    public HeapSection {
        growth = List.copyOf(growth);
        heapAfterGc = List.copyOf(heapAfterGc);
    }

    /** The section for a watch's censuses and its ranked sites; null when no census was taken or asked for. */
    static HeapSection of(CensusHistory history, List<LeakReport.RankedSite> sites) {
        if (history == null || history.censuses() == 0 && history.refusal().isEmpty()) {
            return null;
        }
        ClassCensus first = history.first();
        ClassCensus last = history.last();
        if (last == null) {
            return new HeapSection(0, null, null, null, List.of(), null, List.of(), history.refusal(), 0);
        }
        Map<String, Double> sampledByType = new HashMap<>();
        List<ClassGrowth.SiteGrowth> siteGrowth = new ArrayList<>();
        for (LeakReport.RankedSite s : sites) {
            LeakEvidence e = s.evidence();
            sampledByType.merge(e.site().type(), e.liveBytes(), Double::sum);
            Estimate growth = growth(s.points(), first.atMillis(), last.atMillis());
            if (growth != null) {
                siteGrowth.add(new ClassGrowth.SiteGrowth(e.site().allocatedAt(), e.site().type(), growth));
            }
        }
        return new HeapSection(history.censuses(), first, last, HeapAccount.of(last, sampledByType),
                ClassGrowth.between(first, last, siteGrowth), TimeToOom.of(history.points(), last.maxHeapBytes(), history.reading(),
                        history.slack()),
                history.points(), history.refusal(), history.lastHeldBytes());
    }

    /**
     * A site's proven live bytes at the last census less those at the first (0 if it was not seen yet then):
     * the objects proven at the first are among those at the last for a site that keeps them, so the
     * difference's variance is that of the later part alone.
     */
    private static Estimate growth(List<SitePoint> points, long fromMillis, long toMillis) {
        SitePoint before = null;
        SitePoint after = null;
        for (SitePoint p : points) {
            if (p.atMillis() <= fromMillis) {
                before = p;
            }
            if (p.atMillis() <= toMillis) {
                after = p;
            }
        }
        if (after == null || after == before) {
            return null;
        }
        return before == null ? after.live() : after.live().minus(before.live());
    }
}
