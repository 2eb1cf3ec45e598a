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
    private final HeapSlack slack;
    private ClassCensus first;
    private ClassCensus last;
    private int censuses;
    private long lastHeldBytes;
    private final List<TimeToOom.Point> points = new ArrayList<>();
    private String refusal = "";

    /**
     * A history whose trend follows {@code reading}, the JVM failing within {@code slack} of its reaching the maximum
     * ({@link TimeToOom}).
     */
    public CensusHistory(HeapReading reading, HeapSlack slack) {
        this.reading = reading;
        this.slack = slack;
    }

    /**
     * Adds a census, with what heaptap's live tracking held of the heap's objects that no marking had examined yet.
     * Where the census marks from every root, weak ones too (ZGC and Shenandoah: {@link HeapReading#CENSUS}), it counts
     * a sampled object whose only reference is heaptap's, and samples allocated while the forced cycle ran survive it
     * unexamined (measured, #36's scenario on generational ZGC, JDK 25: 1.4-6 MB of them at most censuses, 18.9 MB at
     * one): there the census is kept less them, class by class ({@link ClassCensus#less}), so its classes, their growth
     * and its live bytes are the application's. Elsewhere the census walks the heap and counts every object, dead or
     * not, heaptap's samples among the rest: it is kept as counted, and only its live bytes leave them out.
     * {@code compacted}: the forced collection before it compacted everything ({@link TimeToOom.Point#compacted}).
     */
    public void add(ClassCensus census, HeldByTracking held, boolean compacted) {
        ClassCensus counted = reading == HeapReading.CENSUS ? census.less(held) : census;
        if (first == null) {
            first = counted;
        }
        last = counted;
        lastHeldBytes = reading == HeapReading.CENSUS ? held.bytes() : 0;
        censuses++;
        long live = reading == HeapReading.CENSUS ? counted.totalBytes() : Math.max(0, census.totalBytes() - held.bytes());
        TimeToOom.Point point = new TimeToOom.Point(census.atMillis(), census.heapAfterGcBytes(), live, compacted);
        if (reading.of(point) > 0) {
            if (points.size() == MAX_POINTS) {
                thin();
            }
            points.add(point);
        }
    }

    /** What the last census was kept less of, heaptap's samples no marking had examined ({@link #add}); 0 where none. */
    public long lastHeldBytes() {
        return lastHeldBytes;
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

    /** How far from the reading's reaching the maximum the JVM can fail: the time to OOM's interval allows for it. */
    public HeapSlack slack() {
        return slack;
    }

    public List<TimeToOom.Point> points() {
        return List.copyOf(points);
    }

    public String refusal() {
        return refusal;
    }
}
