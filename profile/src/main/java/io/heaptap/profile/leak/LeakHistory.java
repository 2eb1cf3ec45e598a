package io.heaptap.profile.leak;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveStats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Live snapshots of a leak watch, turned into one bounded series per site. A profile's allocation
 * counters are cumulative per capture (and start again when a capture is re-armed), so each point
 * stores what the site allocated since the previous snapshot. A site absent from a snapshot gets a
 * point with nothing live: that it died matters as much as that it lived.
 *
 * <p>The history lives on the target's heap for the whole watch and after it, so it is bounded in bytes
 * ({@link HistoryFootprint}): a site is followed only while every followed site could still keep
 * {@link #MIN_POINTS_PER_SITE} points, and the points each site keeps shrink as sites come, older ones merged pairwise.
 */
public final class LeakHistory {
    public static final int DEFAULT_MAX_SITES = 1000;
    public static final int DEFAULT_MAX_POINTS = 120;
    /** A site is followed only if it can keep this many points: fewer say little about a trend. */
    public static final int MIN_POINTS_PER_SITE = 8;
    /**
     * A point's heap: a {@link SitePoint} (a 12-byte header and 15 eight-byte fields, 136 bytes aligned) and a reference
     * to it in its series and in the report's copy of that series (4 bytes each with compressed references).
     */
    public static final long POINT_BYTES = 144;
    /**
     * A site's heap besides its points: its verdict ({@link LeakEvidence}, 200 bytes), its series, key, report row, map
     * entries and lists (about 300 bytes), and its stack's list (4 bytes a frame, 64 frames at most; the frames themselves
     * are shared). Read from a class histogram of 1,000 sites of 13 frames: about 560 bytes.
     */
    public static final long SITE_BYTES = 800;
    /** The heap of the largest history: {@link #DEFAULT_MAX_SITES} sites of {@link #DEFAULT_MAX_POINTS} points (18.1 MB). */
    public static final long MAX_BYTES = bytesFor(DEFAULT_MAX_SITES, DEFAULT_MAX_POINTS);

    private final long maxBytes;
    private final int maxSites;
    private final int maxPoints;
    private int pointsPerSite;
    private final Map<SiteKey, SiteSeries> series = new LinkedHashMap<>();
    private final Map<SiteKey, double[]> cumulative = new HashMap<>();
    private Instant captureStartedAt;
    private long lastMillis = -1;
    private long lastGcCount;
    private long firstGcCount = -1;
    private long lastMarkings;
    private long watchStartMarkings;
    private int snapshots;
    private long sitesLeftOut;

    /** The largest history: {@link #DEFAULT_MAX_SITES} sites, {@link #DEFAULT_MAX_POINTS} points each. */
    public LeakHistory() {
        this(DEFAULT_MAX_SITES, DEFAULT_MAX_POINTS);
    }

    /** At most {@code maxSites} sites of {@code maxPoints} points each. */
    public LeakHistory(int maxSites, int maxPoints) {
        this(bytesFor(maxSites, maxPoints), maxSites, maxPoints);
    }

    /**
     * A history within {@code maxBytes} of heap (at most {@link #MAX_BYTES} is ever used).
     *
     * @throws IllegalArgumentException too small for one site's {@link #MIN_POINTS_PER_SITE} points
     */
    public LeakHistory(long maxBytes) {
        this(maxBytes, DEFAULT_MAX_SITES, DEFAULT_MAX_POINTS);
    }

    private LeakHistory(long maxBytes, int maxSites, int maxPoints) {
        long minimum = bytesFor(1, Math.min(maxPoints, MIN_POINTS_PER_SITE));
        if (maxBytes < minimum) {
            throw new IllegalArgumentException("a leak watch's history needs at least " + minimum + " bytes, not " + maxBytes);
        }
        this.maxBytes = Math.min(maxBytes, bytesFor(maxSites, maxPoints));
        this.maxPoints = maxPoints;
        this.maxSites = (int) Math.min(maxSites, this.maxBytes / (SITE_BYTES + Math.min(maxPoints, MIN_POINTS_PER_SITE) * POINT_BYTES));
        this.pointsPerSite = maxPoints;
    }

    static long bytesFor(int sites, int points) {
        return sites * (SITE_BYTES + points * POINT_BYTES);
    }

    /** Adds a snapshot taken {@code atMillis} after the watch started. */
    public void add(long atMillis, AllocationProfile profile) {
        if (atMillis <= lastMillis) {
            throw new IllegalArgumentException("snapshots must come in time order");
        }
        if (!profile.info().startedAt().equals(captureStartedAt)) {
            cumulative.clear();  // a new capture: its counters start from zero
            captureStartedAt = profile.info().startedAt();
        }
        long gcCount = profile.liveInfo().gcCount();
        long markings = profile.liveInfo().markings().completed();
        long horizon = profile.liveInfo().markings().horizonMillis();
        if (firstGcCount < 0) {
            firstGcCount = gcCount;
            watchStartMarkings = markings - profile.liveInfo().markings().inWindow();
        }
        long windowStart = Math.max(0, lastMillis);
        long windowGcs = lastMillis < 0 ? gcCount : lastGcCount;
        // The first snapshot's site window starts at the watch's start, whose markings came before it.
        long windowMarkings = lastMillis < 0 ? watchStartMarkings : lastMarkings;
        Map<SiteKey, AllocationSite> now = new HashMap<>();
        for (AllocationSite site : profile.sites()) {
            now.merge(SiteKey.of(site), site, (a, b) -> a);
        }
        for (Map.Entry<SiteKey, SiteSeries> e : series.entrySet()) {
            AllocationSite site = now.remove(e.getKey());
            e.getValue().add(point(atMillis, e.getKey(), site, gcCount, markings, horizon));
        }
        sitesLeftOut = 0;
        List<AllocationSite> newcomers = new ArrayList<>(now.values());
        newcomers.sort(Comparator.comparingDouble((AllocationSite s) -> s.live().estimatedBytes())
                .thenComparingDouble(AllocationSite::estimatedBytes).reversed());
        for (AllocationSite site : newcomers) {
            if (series.size() >= maxSites) {
                sitesLeftOut++;
                continue;
            }
            SiteKey key = SiteKey.of(site);
            SiteSeries s = new SiteSeries(key, windowStart, windowGcs, windowMarkings, pointsPerSite);
            s.add(point(atMillis, key, site, gcCount, markings, horizon));
            series.put(key, s);
        }
        shareTheBound();
        lastMillis = atMillis;
        lastGcCount = gcCount;
        lastMarkings = markings;
        snapshots++;
    }

    /** Each site's points shrink to what the bound leaves it, now that there may be more sites. */
    private void shareTheBound() {
        if (series.isEmpty()) {
            return;
        }
        long perSite = maxBytes / series.size() - SITE_BYTES;
        int points = (int) Math.max(SiteSeries.MIN_POINTS, Math.min(maxPoints, perSite / POINT_BYTES));
        if (points < pointsPerSite) {
            pointsPerSite = points;
            series.values().forEach(s -> s.keepAtMost(points));
        }
    }

    /** What the history keeps on the heap now, and its bound. */
    public HistoryFootprint footprint() {
        long points = 0;
        for (SiteSeries s : series.values()) {
            points += s.size();
        }
        return new HistoryFootprint(series.size() * SITE_BYTES + points * POINT_BYTES, maxBytes, series.size(), maxSites, pointsPerSite);
    }

    private SitePoint point(long atMillis, SiteKey key, AllocationSite site, long gcCount, long markings, long horizon) {
        if (site == null) {
            return new SitePoint(atMillis, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, gcCount, markings, horizon);
        }
        double[] before = cumulative.getOrDefault(key, new double[2]);
        double objects = Math.max(0, site.estimatedObjects() - before[0]);
        double bytes = Math.max(0, site.estimatedBytes() - before[1]);
        cumulative.put(key, new double[] {site.estimatedObjects(), site.estimatedBytes()});
        LiveStats l = site.live();
        return new SitePoint(atMillis, l.tracked(), l.proven().tracked(), l.proven().objects().value(),
                l.proven().bytes().value(), l.proven().bytes().variance(), l.unexamined().bytes().value() + l.heldUnexamined().bytes().value(),
                l.provenMedianAge().toMillis(), l.provenMaxAge().toMillis(), l.medianGcs(), objects, bytes, gcCount, markings,
                horizon);
    }

    public List<SiteSeries> sites() {
        return List.copyOf(series.values());
    }

    public int snapshots() {
        return snapshots;
    }

    /** Milliseconds since the watch started at the last snapshot; -1 before the first. */
    public long lastMillis() {
        return lastMillis;
    }

    /** Collections between the first and the last snapshot. */
    public long gcs() {
        return firstGcCount < 0 ? 0 : lastGcCount - firstGcCount;
    }

    /** Whole-heap markings between the watch's start and the last snapshot. */
    public long markings() {
        return firstGcCount < 0 ? 0 : lastMarkings - watchStartMarkings;
    }

    /** Sites of the last snapshot not followed because {@code maxSites} were followed already (a count). */
    public long sitesLeftOut() {
        return sitesLeftOut;
    }
}
