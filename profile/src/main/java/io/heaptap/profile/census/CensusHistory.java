package io.heaptap.profile.census;

import java.util.ArrayList;
import java.util.List;

/**
 * The censuses of one watch, in bounded memory: the first and the last in full (for exact class growth
 * and the accounting of the heap), and the heap after every forced collection as a point for the trend
 * to OOM (at most {@link #MAX_POINTS}; when full, every second one is dropped, keeping the first and the
 * last). Not thread-safe: its owner's lock guards it.
 */
public final class CensusHistory {
    /**
     * Readings kept for the trend. The line through them compares every two ({@link TimeToOom}): 120 readings make
     * 7,140 slopes, 57 KB of doubles for the moment a report is built, where 240 made four times that. A trend needs
     * far fewer, and thinning keeps the whole watch's span.
     */
    public static final int MAX_POINTS = 120;

    private ClassCensus first;
    private ClassCensus last;
    private int censuses;
    private final List<TimeToOom.Point> points = new ArrayList<>();
    private String refusal = "";

    public void add(ClassCensus census) {
        if (first == null) {
            first = census;
        }
        last = census;
        censuses++;
        if (census.heapAfterGcBytes() > 0) {
            if (points.size() == MAX_POINTS) {
                thin();
            }
            points.add(new TimeToOom.Point(census.atMillis(), census.heapAfterGcBytes()));
        }
    }

    /** Why the last census could not be taken (it is retried at the next forced collection); empty when none was refused. */
    public void refused(String why) {
        refusal = why;
    }

    private void thin() {
        List<TimeToOom.Point> kept = new ArrayList<>(points.size() / 2 + 1);
        for (int i = 0; i < points.size(); i += 2) {
            kept.add(points.get(i));
        }
        points.clear();
        points.addAll(kept);
    }

    public ClassCensus first() {
        return first;
    }

    public ClassCensus last() {
        return last;
    }

    public int censuses() {
        return censuses;
    }

    public List<TimeToOom.Point> points() {
        return List.copyOf(points);
    }

    public String refusal() {
        return refusal;
    }
}
