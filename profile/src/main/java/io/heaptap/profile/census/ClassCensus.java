package io.heaptap.profile.census;

import io.heaptap.profile.HumanUnits;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * An exact census of the heap per class, taken right after a whole-heap collection heaptap forced:
 * the {@value #DEFAULT_TOP} classes holding the most bytes, and the rest as one row, so its size is
 * bounded whatever the number of loaded classes.
 *
 * @param atMillis         when it was taken, in milliseconds since the watch started
 * @param heapAfterGcBytes the collector's own figure of heap in use after the collection (summed over the heap's pools)
 * @param maxHeapBytes     the heap's maximum (-Xmx), 0 when the JVM does not say
 * @param pauseMillis      how long the census call took (the application's pause for the heap walk)
 * @param top              the classes with the most bytes, most first
 * @param rest             every other class as one row (name: the number of classes it stands for)
 * @param restClasses      how many classes {@code rest} stands for
 * @param totalInstances   all live instances the census counted
 * @param totalBytes       all live bytes the census counted
 */
public record ClassCensus(long atMillis, long heapAfterGcBytes, long maxHeapBytes, long pauseMillis, List<ClassCount> top,
                          ClassCount rest, int restClasses, long totalInstances, long totalBytes) {
    /** Classes kept by name: enough to name what holds a heap, small enough to keep two per watch. */
    public static final int DEFAULT_TOP = 100;
    /**
     * A gap between the census and the collector's heap after GC that is worth a line of its own, as a share of the
     * collector's figure: within it, the two differ by the census's timing and the collector's accounting alone.
     */
    public static final double GAP_WORTH_SAYING = 0.02;

    public ClassCensus {
        top = List.copyOf(top);
    }

    /** The row of a class among the top ones, or null when it is in the rest (or absent). */
    public ClassCount row(String name) {
        for (ClassCount c : top) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** Classes with live objects this census counted: those named and those in the rest. */
    public int classCount() {
        return top.size() + restClasses;
    }

    /** The census's summary line as a census and a dump's census word it: the collector's figure, then the census's. */
    public String heapLine() {
        return String.format(Locale.ROOT, "heap in use after GC %s (the collector's figure)%s; census %s in %s objects%s",
                HumanUnits.formatBytes(heapAfterGcBytes), maxHeapBytes > 0 ? " of " + HumanUnits.formatBytes(maxHeapBytes) + " max" : "",
                HumanUnits.formatBytes(totalBytes), HumanUnits.formatCount(totalInstances), aboveHeapAfterGc());
    }

    /**
     * "; the census counted N more ..." when it counted more than {@link #GAP_WORTH_SAYING} above the collector's
     * figure, else empty. The census walks the heap with {@code -all} right after the forced collection, so what the
     * application allocated in between is counted too, dead or not: a 256 MiB target allocating 3 GiB/s counted
     * 26 MiB against 5.3 MiB.
     */
    public String aboveHeapAfterGc() {
        long above = totalBytes - heapAfterGcBytes;
        if (heapAfterGcBytes <= 0 || above <= GAP_WORTH_SAYING * heapAfterGcBytes) {
            return "";
        }
        return "; the census counted " + HumanUnits.formatBytes(above) + " more: what the application allocated between the"
                + " collection and the census, dead or not";
    }

    /**
     * This census without what heaptap's live tracking held unexamined ({@link HeldByTracking}): each named class less
     * its part, the rest less the part of classes not named, the totals less all of it (never below nothing). The named
     * classes stay the same ones, in their new order.
     */
    public ClassCensus less(HeldByTracking held) {
        if (held.bytes() == 0 && held.byClass().isEmpty()) {
            return this;
        }
        List<ClassCount> named = new ArrayList<>(top.size());
        long namedCount = 0;
        long namedBytes = 0;
        for (ClassCount c : top) {
            long[] h = held.of(c.name());
            named.add(new ClassCount(c.name(), Math.max(0, c.instances() - h[0]), Math.max(0, c.bytes() - h[1])));
            namedCount += h[0];
            namedBytes += h[1];
        }
        named.sort(Comparator.comparingLong(ClassCount::bytes).reversed().thenComparing(ClassCount::name));
        long heldCount = 0;
        for (long[] h : held.byClass().values()) {
            heldCount += h[0];
        }
        ClassCount lessRest = new ClassCount(rest.name(), Math.max(0, rest.instances() - (heldCount - namedCount)),
                Math.max(0, rest.bytes() - Math.max(0, held.bytes() - namedBytes)));
        return new ClassCensus(atMillis, heapAfterGcBytes, maxHeapBytes, pauseMillis, named, lessRest, restClasses,
                Math.max(0, totalInstances - heldCount), Math.max(0, totalBytes - held.bytes()));
    }

    /** The smallest byte count a named row has: a class in the rest holds at most this. */
    public long restCeilingBytes() {
        return top.isEmpty() ? 0 : top.get(top.size() - 1).bytes();
    }
}
