package io.heaptap.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An allocation profile: how it was captured and what was allocated where. */
public record AllocationProfile(CaptureInfo info, List<AllocationSite> sites) {

    public AllocationProfile {
        sites = List.copyOf(sites);
    }

    /** Totals over a group of sites (a type, or the whole profile). */
    public record Totals(String name, long samples, double estimatedObjects, double estimatedBytes) {
    }

    public Totals totals() {
        return sum("all", sites);
    }

    /** Sites ordered by estimated bytes, largest first. */
    public List<AllocationSite> sitesByBytes() {
        List<AllocationSite> sorted = new ArrayList<>(sites);
        sorted.sort(Comparator.comparingDouble(AllocationSite::estimatedBytes).reversed());
        return sorted;
    }

    /** Per allocated type, ordered by estimated bytes, largest first. */
    public List<Totals> typesByBytes() {
        Map<String, List<AllocationSite>> byType = new LinkedHashMap<>();
        for (AllocationSite site : sites) {
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
