package io.heaptap.profile.census;

import java.util.ArrayList;
import java.util.List;

/**
 * The censuses of one watch, in bounded memory: the first and the last in full (for exact class growth
 * and the accounting of the heap), and the heap after every forced collection as a point for the trend
 * to OOM (at most {@link #MAX_POINTS}; when full, every second one is dropped, keeping the first and the
 * last), read as the collector in the target calls for ({@link HeapReading}). Not thread-safe: its owner's lock
 * guards it.
 */
public final class CensusHistory {
    /**
     * Readings kept for the trend. The line through them compares every two ({@link TimeToOom}): 120 readings make
     * 7,140 slopes, 57 KB of doubles for the moment a report is built, where 240 made four times that. A trend needs
     * far fewer, and thinning keeps the whole watch's span.
     */
    public static final int MAX_POINTS = 120;

    private final HeapReading reading;
    private ClassCensus first;
    private ClassCensus last;
    private int censuses;
    private final List<TimeToOom.Point> points = new ArrayList<>();
    private String refusal = "";

    /** A history whose trend follows {@code reading}. */
    public CensusHistory(HeapReading reading) {
        this.reading = reading;
    }

    /**
     * Adds a census, with the sizes of the objects heaptap's live tracking held at that moment that no marking had examined
     * yet. Those are taken off the census's live bytes: ZGC and Shenandoah's census marks from every root, weak ones too,
     * so it counts a sampled object whose only reference is heaptap's, and samples allocated while the forced cycle ran
     * survive it unexamined (measured, #36's scenario on generational ZGC, JDK 25: 1.4-6 MB of them at most censuses,
     * 18.9 MB at one, where the census's {@code byte[]} rose by 14 MB and fell back at the next). Tracked objects alive
     * in their own right are taken off too: a few MB that moves the level, not the trend.
     */
    public void add(ClassCensus census, long heaptapUnexaminedBytes) {
        if (first == null) {
            first = census;
        }
        last = census;
        censuses++;
        TimeToOom.Point point = new TimeToOom.Point(census.atMillis(), census.heapAfterGcBytes(),
                Math.max(0, census.totalBytes() - Math.max(0, heaptapUnexaminedBytes)));
        if (reading.of(point) > 0) {
            if (points.size() == MAX_POINTS) {
                thin();
            }
            points.add(point);
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

    /** Which reading of the heap the trend follows. */
    public HeapReading reading() {
        return reading;
    }

    public List<TimeToOom.Point> points() {
        return List.copyOf(points);
    }

    public String refusal() {
        return refusal;
    }
}
