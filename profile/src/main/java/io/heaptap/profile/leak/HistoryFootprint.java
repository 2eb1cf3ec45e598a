package io.heaptap.profile.leak;

/**
 * What a leak watch's history keeps on the target's heap, and its bound. The history is one series of points per site,
 * kept for the whole watch and after it (so a report can be read at any time); on a small heap, a thousand sites at a
 * snapshot a second would otherwise keep a sixth of it (measured: 10.8 MB of points after 140 s on a 64 MiB heap).
 *
 * @param bytes         the history's estimated size now: sites times {@link LeakHistory#SITE_BYTES}, plus points times
 *                      {@link LeakHistory#POINT_BYTES}
 * @param boundBytes    what it may take
 * @param sites         sites followed (a count)
 * @param maxSites      sites the bound lets it follow, each with at least {@link LeakHistory#MIN_POINTS_PER_SITE} points
 * @param pointsPerSite points each site keeps at most now: older ones are merged pairwise beyond it
 */
public record HistoryFootprint(long bytes, long boundBytes, int sites, int maxSites, int pointsPerSite) {
    /** Whether the bound, rather than the watch's own limits, decided how many sites or points are kept. */
    public boolean bounded() {
        return maxSites < LeakHistory.DEFAULT_MAX_SITES || pointsPerSite < LeakHistory.DEFAULT_MAX_POINTS;
    }
}
