package io.heaptap.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A profile: how it was captured, what was allocated where during the capture, and what of it
 * (and of earlier captures since the last reset) is alive now.
 */
public record AllocationProfile(CaptureInfo info, LiveInfo liveInfo, List<AllocationSite> sites) {

    public AllocationProfile {
        sites = sites.stream().filter(s -> !s.isEmpty()).toList();
    }

    /** Totals over a group of sites (a type, or the whole profile). */
    public record Totals(String name, long samples, double estimatedObjects, double estimatedBytes) {
    }

    public Totals totals() {
        return sum("all", sites);
    }

    /** Estimated bytes allocated per second of the capture (an estimate, from the samples). */
    public double allocationRate() {
        return info.durationNanos() <= 0 ? 0 : totals().estimatedBytes() / (info.durationNanos() / 1e9);
    }

    /** Live totals over a group of sites. */
    public record LiveTotals(String name, long tracked, double estimatedObjects, double estimatedBytes) {
    }

    public LiveTotals liveTotals() {
        return liveSum("all", sites);
    }

    /** Sites holding live objects, largest estimated live bytes first. */
    public List<AllocationSite> sitesByLiveBytes() {
        List<AllocationSite> live = new ArrayList<>(sites.stream().filter(s -> !s.live().isEmpty()).toList());
        live.sort(Comparator.comparingDouble((AllocationSite s) -> s.live().estimatedBytes()).reversed());
        return live;
    }

    /** Per type, largest estimated live bytes first. */
    public List<LiveTotals> typesByLiveBytes() {
        Map<String, List<AllocationSite>> byType = new LinkedHashMap<>();
        for (AllocationSite site : sitesByLiveBytes()) {
            byType.computeIfAbsent(site.type(), t -> new ArrayList<>()).add(site);
        }
        List<LiveTotals> types = new ArrayList<>();
        byType.forEach((type, group) -> types.add(liveSum(type, group)));
        types.sort(Comparator.comparingDouble(LiveTotals::estimatedBytes).reversed());
        return types;
    }

    private static LiveTotals liveSum(String name, List<AllocationSite> group) {
        long tracked = 0;
        double objects = 0;
        double bytes = 0;
        for (AllocationSite site : group) {
            tracked += site.live().tracked();
            objects += site.live().estimatedObjects();
            bytes += site.live().estimatedBytes();
        }
        return new LiveTotals(name, tracked, objects, bytes);
    }

    /** Sites with allocations in this capture, ordered by estimated bytes, largest first. */
    public List<AllocationSite> sitesByBytes() {
        List<AllocationSite> sorted = new ArrayList<>(sites.stream().filter(s -> s.samples() > 0).toList());
        sorted.sort(Comparator.comparingDouble(AllocationSite::estimatedBytes).reversed());
        return sorted;
    }

    /** Per allocated type, ordered by estimated bytes, largest first. */
    public List<Totals> typesByBytes() {
        Map<String, List<AllocationSite>> byType = new LinkedHashMap<>();
        for (AllocationSite site : sitesByBytes()) {
            byType.computeIfAbsent(site.type(), t -> new ArrayList<>()).add(site);
        }
        List<Totals> types = new ArrayList<>();
        byType.forEach((type, group) -> types.add(sum(type, group)));
        types.sort(Comparator.comparingDouble(Totals::estimatedBytes).reversed());
        return types;
    }

    private static Totals sum(String name, List<AllocationSite> group) {
        long samples = 0;
        double objects = 0;
        double bytes = 0;
        for (AllocationSite site : group) {
            samples += site.samples();
            objects += site.estimatedObjects();
            bytes += site.estimatedBytes();
        }
        return new Totals(name, samples, objects, bytes);
    }
}
