package io.heaptap.profile.census;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The heap after a forced whole-heap collection, accounted for: what the sampled sites prove live,
 * and for the rest, the census's classes. Sampled sites see only what was allocated while heaptap
 * watched; the rest of each class is what was there before heaptap came, or what the samples missed.
 * A site estimate above its class's exact census is capped at the census: the census is exact.
 *
 * @param heapAfterGcBytes the collector's own figure of heap in use after the collection
 * @param censusBytes      all live bytes the census counted (exact)
 * @param sampledBytes     what the sampled sites account for (estimated proven live bytes, capped per class)
 * @param classes          per named class, what the sites do not explain, most first
 * @param restUnexplainedBytes the census's other classes, less what sites of theirs explain
 * @param restClasses      how many classes that row stands for
 */
public record HeapAccount(long heapAfterGcBytes, long censusBytes, double sampledBytes, List<Unexplained> classes,
                          double restUnexplainedBytes, int restClasses) {

    /** A census class and how much of it the sampled sites explain. */
    public record Unexplained(String name, long instances, long censusBytes, double sampledBytes, double unexplainedBytes) {
    }

    public HeapAccount {
        classes = List.copyOf(classes);
    }

    /** {@code sampledByType}: the sites' estimated proven live bytes summed per allocated type. */
    public static HeapAccount of(ClassCensus census, Map<String, Double> sampledByType) {
        List<Unexplained> rows = new ArrayList<>();
        double sampled = 0;
        double sampledElsewhere = 0;
        for (Map.Entry<String, Double> e : sampledByType.entrySet()) {
            if (census.row(e.getKey()) == null) {
                sampledElsewhere += Math.max(0, e.getValue());
            }
        }
        for (ClassCount c : census.top()) {
            double s = Math.min(c.bytes(), Math.max(0, sampledByType.getOrDefault(c.name(), 0.0)));
            sampled += s;
            rows.add(new Unexplained(c.name(), c.instances(), c.bytes(), s, c.bytes() - s));
        }
        double restSampled = Math.min(census.rest().bytes(), sampledElsewhere);
        sampled += restSampled;
        rows.sort(Comparator.comparingDouble(Unexplained::unexplainedBytes).reversed());
        return new HeapAccount(census.heapAfterGcBytes(), census.totalBytes(), sampled, rows, census.rest().bytes() - restSampled,
                census.restClasses());
    }

    /** Sampled sites plus the census's classes: the census's total, each byte counted once. */
    public double accountedBytes() {
        double unexplained = restUnexplainedBytes;
        for (Unexplained u : classes) {
            unexplained += u.unexplainedBytes();
        }
        return sampledBytes + unexplained;
    }

    /** Accounted bytes over the collector's heap-after-GC figure (1 = all of it); 0 when the collector gave none. */
    public double accountedShare() {
        return heapAfterGcBytes <= 0 ? 0 : accountedBytes() / heapAfterGcBytes;
    }

    /**
     * The part of the collector's figure that holds no live object: the census counts every live object,
     * so this is space the collector keeps in use beyond them. After a forced collection generational ZGC
     * keeps whole the pages it chose not to compact, their garbage included, and counts them whole: its
     * own log put 33 MiB of garbage in a 560 MiB figure with 526 MiB live, where the census counted 522 MiB. On ZGC and
     * Shenandoah the figure also counts what the application allocated during the cycle: 0.3-3 GB of a 1.4-4.1 GB
     * figure over a 1.1 GB live set, with a thread allocating garbage flat out (#36's scenario, 4 GiB).
     */
    public long notLiveBytes() {
        return Math.max(0, heapAfterGcBytes - censusBytes);
    }

    /** Whether {@link #notLiveBytes} is worth a line: more than {@link ClassCensus#GAP_WORTH_SAYING} of the collector's figure. */
    public boolean notLiveWorthSaying() {
        return heapAfterGcBytes > 0 && notLiveBytes() > ClassCensus.GAP_WORTH_SAYING * heapAfterGcBytes;
    }

    /** Bytes the sites do not explain. */
    public double unexplainedBytes() {
        return accountedBytes() - sampledBytes;
    }
}
