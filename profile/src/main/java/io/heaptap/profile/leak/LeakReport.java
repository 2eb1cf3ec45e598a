package io.heaptap.profile.leak;

import io.heaptap.profile.census.CensusHistory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A leak watch's ranking: every followed site with its verdict, leak suspects first, then the cache-like and
 * stable sites, then the undecided ones, then the transient ones, each group by leak evidence
 * ({@link LeakEvidence#score()}: for undecided sites unproven evidence), then by live bytes; each with its series, for charts. With
 * censuses ({@code --gc}), the whole heap beside them ({@link HeapSection}, else null).
 */
public record LeakReport(LeakWatchInfo watch, List<RankedSite> sites, HeapSection heap) {

    /** A site in the ranking, and the series its verdict came from. */
    public record RankedSite(int rank, LeakEvidence evidence, List<SitePoint> points) {
        public RankedSite {
            points = List.copyOf(points);
        }
    }

    public LeakReport {
        sites = List.copyOf(sites);
    }

    public LeakReport(LeakWatchInfo watch, List<RankedSite> sites) {
        this(watch, sites, null);
    }

    static final Comparator<LeakEvidence> BY_LEAK_EVIDENCE = Comparator
            .comparing((LeakEvidence e) -> e.verdict() != Verdict.LEAK_SUSPECT)
            // Then what is held (cache-like, stable), then the undecided ranked among themselves by unproven evidence,
            // and last what is garbage: without a marking, a rising site must not sink below dozens of dead ones.
            .thenComparing((LeakEvidence e) -> e.verdict() == Verdict.TRANSIENT ? 2 : e.verdict() == Verdict.UNDECIDED ? 1 : 0)
            .thenComparing(Comparator.comparingDouble(LeakEvidence::score).reversed())
            .thenComparing(Comparator.comparingDouble(LeakEvidence::liveBytes).reversed());

    public static LeakReport of(LeakWatchInfo watch, List<SiteSeries> series) {
        return of(watch, series, null);
    }

    /** The ranking, and the whole heap from the watch's {@code censuses} (null: none asked for). */
    public static LeakReport of(LeakWatchInfo watch, List<SiteSeries> series, CensusHistory censuses) {
        record Assessed(LeakEvidence evidence, List<SitePoint> points) {
        }
        List<Assessed> assessed = new ArrayList<>();
        for (SiteSeries s : series) {
            assessed.add(new Assessed(LeakClassifier.assess(s), s.points()));
        }
        assessed.sort(Comparator.comparing(Assessed::evidence, BY_LEAK_EVIDENCE));
        List<RankedSite> ranked = new ArrayList<>();
        for (Assessed a : assessed) {
            ranked.add(new RankedSite(ranked.size() + 1, a.evidence(), a.points()));
        }
        return new LeakReport(watch, ranked, HeapSection.of(censuses, ranked));
    }

    /** The first {@code n} sites. */
    public List<RankedSite> top(int n) {
        return sites.subList(0, Math.min(n, sites.size()));
    }

    /**
     * The projected time to OOM in one line (or why there is none), for the status of the session: empty when the
     * watch took no census ({@code --gc}).
     */
    public String timeToOom() {
        return heap == null || heap.last() == null ? "" : LeakHeapText.timeToOom(heap.timeToOom(), heap.heapAfterGc());
    }

    public long suspects() {
        return sites.stream().filter(s -> s.evidence().verdict() == Verdict.LEAK_SUSPECT).count();
    }
}
