package io.heaptap.profile.census;

import java.util.Locale;

/**
 * Which reading of the heap after each forced collection the time to OOM follows (the session picks it from the
 * collector's beans). The census walks the heap differently by collector, and so does the collector's own figure
 * drift from the live bytes:
 * <ul>
 * <li>G1, Parallel and Serial stop the application to collect, so the forced collection's own figure is the
 * live set and the dead wood it left ({@link TimeToOom}). Their census walks the heap from end to end and counts,
 * dead or not, what the application allocated in the milliseconds since (measured, #36's scenario, G1 4 GiB: that
 * noise hid a 6 MB/min trend the collector's figure shows).</li>
 * <li>ZGC and Shenandoah collect while the application runs. Their figure counts what the application allocated
 * during the cycle, and on generational ZGC the old pool's usage is read before relocation frees the garbage
 * (measured, #36's scenario on ZGC 4 GiB, JDK 25: 1.5-3.6 GB across forced collections 10 s apart). Their census
 * cannot parse the heap from end to end and marks from the roots instead, so it counts reachable objects only:
 * 1.104-1.117 GB in the same watch, rising by the leak.</li>
 * </ul>
 */
public enum HeapReading {
    /** The collector's heap in use after the forced collection, by its own report. */
    COLLECTOR("the heap after GC", ""),
    /** The live bytes the census counted right after the collection, less those of objects heaptap tracks unexamined. */
    CENSUS("the live bytes the census counted", "; this collector's own figure also counts what the application allocated while it"
            + " collected");

    private final String words;
    private final String why;

    HeapReading(String words, String why) {
        this.words = words;
        this.why = why;
    }

    /** What the reading is, as a report's line names it. */
    public String words() {
        return words;
    }

    /** Why a report follows it, as a clause after "; ", or empty for the collector's own figure. */
    public String why() {
        return why;
    }

    /** The JSON's name for it. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** This reading of one point. */
    public long of(TimeToOom.Point point) {
        return this == CENSUS ? point.liveBytes() : point.heapBytes();
    }
}
