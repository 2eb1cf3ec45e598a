package io.heaptap.profile;

import io.heaptap.profile.census.DumpCensus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A profile: how it was captured, what was allocated where during the capture, and what of it
 * (and of earlier captures since the last reset) is alive now; with a forced collection
 * ({@code dump --gc}), the class census taken right after it ({@code census}, else null).
 */
public record AllocationProfile(CaptureInfo info, LiveInfo liveInfo, List<AllocationSite> sites, DumpCensus census) {

    public AllocationProfile {
        sites = sites.stream().filter(s -> !s.isEmpty()).toList();
    }

    /** Without a census. */
    public AllocationProfile(CaptureInfo info, LiveInfo liveInfo, List<AllocationSite> sites) {
        this(info, liveInfo, sites, null);
    }

    /** The same profile carrying {@code c} (null: none). */
    public AllocationProfile withCensus(DumpCensus c) {
        return new AllocationProfile(info, liveInfo, sites, c);
    }

    /** Totals over a group of sites (a type, or the whole profile), with the variances of the estimates. */
    public record Totals(String name, long samples, double estimatedObjects, double estimatedBytes, double objectsVariance,
                         double bytesVariance) {
        public Estimate bytes() {
            return new Estimate(estimatedBytes, bytesVariance);
        }

        public Estimate objects() {
            return new Estimate(estimatedObjects, objectsVariance);
        }
    }

    public Totals totals() {
        return sum("all", sites);
    }

    /** Estimated bytes allocated per second of the capture (an estimate, from the samples). */
    public double allocationRate() {
        return info.durationNanos() <= 0 ? 0 : totals().estimatedBytes() / (info.durationNanos() / 1e9);
    }

    /** Live totals over a group of sites: the proven part, the part not yet examined, large objects not yet examined. */
    public record LiveTotals(String name, long tracked, LiveStats.Part proven, LiveStats.Part unexamined,
                             LiveStats.Part heldUnexamined) {
        /** Proven plus not yet examined: what the weak references still point at, estimated. */
        public double estimatedBytes() {
            return proven.bytes().value() + unexamined.bytes().value();
        }

        public double estimatedObjects() {
            return proven.objects().value() + unexamined.objects().value();
        }
    }

    public LiveTotals liveTotals() {
        return liveSum("all", sites);
    }

    /** Sites holding live objects, largest estimated live bytes first. */
    public List<AllocationSite> sitesByLiveBytes() {
        List<AllocationSite> live = new ArrayList<>(sites.stream().filter(s -> !s.live().isEmpty()).toList());
        live.sort(Comparator.comparingDouble((AllocationSite s) -> s.live().proven().bytes().value())
                .thenComparingDouble(s -> s.live().estimatedBytes()).reversed());
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
        types.sort(Comparator.comparingDouble((LiveTotals t) -> t.proven().bytes().value())
                .thenComparingDouble(LiveTotals::estimatedBytes).reversed());
        return types;
    }

    private static LiveTotals liveSum(String name, List<AllocationSite> group) {
        long tracked = 0;
        LiveStats.Part proven = LiveStats.Part.NONE;
        LiveStats.Part unexamined = LiveStats.Part.NONE;
        LiveStats.Part large = LiveStats.Part.NONE;
        for (AllocationSite site : group) {
            tracked += site.live().tracked();
            proven = proven.plus(site.live().proven());
            unexamined = unexamined.plus(site.live().unexamined());
            large = large.plus(site.live().heldUnexamined());
        }
        return new LiveTotals(name, tracked, proven, unexamined, large);
    }

    /**
     * What the heap cannot hold, in words: a live estimate whose 95% interval lies wholly above the
     * heap in use, or a site's above the heap's maximum. Empty when every figure is possible. Such a
     * figure is a fault of the estimate (a bias heaptap did not correct), never a fact to act on.
     */
    public List<String> impossibleFigures() {
        List<String> problems = new ArrayList<>();
        long used = liveInfo.heapUsedBytes();
        long max = liveInfo.heapMaxBytes();
        LiveTotals total = liveTotals();
        Estimate live = total.proven().bytes().plus(total.unexamined().bytes());
        if (used > 0 && live.lower() > used) {
            problems.add("the live estimate " + HumanUnits.formatBytes(live.value()) + " is above the heap in use ("
                    + HumanUnits.formatBytes(used) + "): it cannot be right");
        }
        if (max > 0) {
            for (AllocationSite s : sites) {
                Estimate site = s.live().proven().bytes().plus(s.live().unexamined().bytes());
                if (site.lower() > max) {
                    problems.add("the live estimate of " + s.type() + " at " + s.allocatedAt() + " ("
                            + HumanUnits.formatBytes(site.value()) + ") is above the maximum heap (" + HumanUnits.formatBytes(max)
                            + "): it cannot be right");
                }
            }
        }
        return problems;
    }

    /** Whether the live estimate of a site is above what the heap can hold (see {@link #impossibleFigures()}). */
    public boolean isImpossible(LiveStats live) {
        long max = liveInfo.heapMaxBytes();
        return max > 0 && live.proven().bytes().plus(live.unexamined().bytes()).lower() > max;
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
        double objectsVariance = 0;
        double bytesVariance = 0;
        for (AllocationSite site : group) {
            samples += site.samples();
            objects += site.estimatedObjects();
            bytes += site.estimatedBytes();
            objectsVariance += site.objectsVariance();
            bytesVariance += site.bytesVariance();
        }
        return new Totals(name, samples, objects, bytes, objectsVariance, bytesVariance);
    }
}
