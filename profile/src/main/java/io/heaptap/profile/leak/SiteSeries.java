package io.heaptap.profile.leak;

import java.util.ArrayList;
import java.util.List;

/**
 * The history of one site over a leak watch, bounded: when full, neighbouring points are merged
 * pairwise (the later one stays, the allocations of both are summed), so a long watch keeps its
 * whole span at a coarser step. The first point is never merged away: it starts the window.
 */
public final class SiteSeries {
    /** Fewer points could not show a trend: a first point, and at least three after it to compare. */
    public static final int MIN_POINTS = 4;

    private final SiteKey key;
    private final long windowStartMillis;
    private final long gcCountAtStart;
    private final long markingsAtStart;
    private int maxPoints;
    private final List<SitePoint> points = new ArrayList<>();

    /**
     * @param windowStartMillis when the site could first have allocated: the snapshot before the one
     *                          it first appeared in (0 for the first snapshot)
     * @param gcCountAtStart    the GC clock at that snapshot
     * @param markingsAtStart   the marking clock at that snapshot
     */
    public SiteSeries(SiteKey key, long windowStartMillis, long gcCountAtStart, long markingsAtStart, int maxPoints) {
        if (maxPoints < MIN_POINTS) {
            throw new IllegalArgumentException("maxPoints must be at least " + MIN_POINTS);
        }
        this.key = key;
        this.windowStartMillis = windowStartMillis;
        this.gcCountAtStart = gcCountAtStart;
        this.markingsAtStart = markingsAtStart;
        this.maxPoints = maxPoints;
    }

    public void add(SitePoint point) {
        if (points.size() == maxPoints) {
            halve();
        }
        points.add(point);
    }

    /**
     * Keeps at most {@code max} points from now on (at least {@link #MIN_POINTS}), merging pairwise until they fit: the
     * watch's history shares a byte bound among its sites, so each keeps fewer as more sites come.
     */
    public void keepAtMost(int max) {
        maxPoints = Math.max(MIN_POINTS, max);
        while (points.size() > maxPoints) {
            halve();
        }
    }

    /** Points kept now (a count). */
    public int size() {
        return points.size();
    }

    private void halve() {
        List<SitePoint> merged = new ArrayList<>();
        merged.add(points.get(0));
        for (int i = 1; i < points.size(); i += 2) {
            if (i + 1 < points.size()) {
                SitePoint a = points.get(i);
                SitePoint b = points.get(i + 1);
                merged.add(new SitePoint(b.atMillis(), b.tracked(), b.provenTracked(), b.liveObjects(), b.liveBytes(),
                        b.liveBytesVariance(), b.unexaminedBytes(), b.medianAgeMillis(), b.maxAgeMillis(), b.medianGcs(),
                        a.allocatedObjects() + b.allocatedObjects(), a.allocatedBytes() + b.allocatedBytes(), b.gcCount(),
                        b.markings(), b.horizonMillis()));
            } else {
                merged.add(points.get(i));
            }
        }
        points.clear();
        points.addAll(merged);
    }

    public SiteKey key() {
        return key;
    }

    public long windowStartMillis() {
        return windowStartMillis;
    }

    public long gcCountAtStart() {
        return gcCountAtStart;
    }

    public long markingsAtStart() {
        return markingsAtStart;
    }

    public List<SitePoint> points() {
        return List.copyOf(points);
    }

    public SitePoint last() {
        return points.get(points.size() - 1);
    }
}
