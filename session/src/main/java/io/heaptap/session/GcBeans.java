package io.heaptap.session;

import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.census.HeapSlack;

import java.util.List;
import java.util.function.Consumer;

/**
 * What heaptap reads of the JVM's garbage collectors: their beans' names and counters, the heap, and
 * one stream of collections. In the target it is {@link PlatformGcBeans}, over the platform MXBeans;
 * the unit tests of the GC cost and of the marking clock's feed give their own collections.
 */
interface GcBeans {
    /**
     * One collection as its bean reported it; heap used before and after it, summed over the heap's pools.
     * The cause is known for the collections that can prove liveness only, and "" for the others.
     * {@code stands} is how many of the bean's collections it stands for: 1, or for a polled bean the
     * collections since its previous read, of which this is the last.
     */
    record Collection(String gcName, String cause, long id, long startMillis, long endMillis, long heapUsedBefore,
                      long heapUsedAfter, long stands) {
    }

    /** One bean's counters. */
    record Counters(String name, long collections, long millis) {
    }

    /** Ends a subscription; closing twice is harmless. */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /** The beans' names, in the JVM's order. */
    List<String> names();

    /**
     * Whether Shenandoah runs in its generational mode ({@code -XX:ShenandoahGCMode=generational}, JDK 25+).
     * Its beans are named as in its single-generation mode, yet most of its cycles are then young ones.
     */
    default boolean generationalShenandoah() {
        return false;
    }

    /** Every bean's counters, read now. */
    List<Counters> counters();

    HeapSizing heap();

    /**
     * The heap in use after the last collection of each of its pools, summed (the pools' collection usage; at most the
     * heap in use now), or -1
     * when unknown: what the application cannot get back without heaptap, judged against the maximum heap for
     * a critical heap ({@link LiveTracker#CRITICAL_SHARE}).
     */
    default long heapAfterGc() {
        return -1;
    }

    /**
     * The heap in use after the last whole-heap collection, by that collection's own report (at most the heap in use
     * now), or {@link #heapAfterGc()} when none reports one. Right after a collection heaptap forced (on every collector a
     * whole-heap one), this is the figure for that collection alone: the pools' collection usage of
     * {@link #heapAfterGc()} also counts the survivors of every young collection since (measured, JDK 17: G1's survivor
     * space read 21 MB after the young collections that followed {@code System.gc()}, which had left it empty).
     */
    default long heapAfterWholeHeapCollection() {
        return heapAfterGc();
    }

    /**
     * How far from the moment its reading reaches the maximum heap this collector can fail ({@link HeapSlack}): G1,
     * Parallel and Serial leave dead wood in their figure after a forced full collection ({@code MarkSweepDeadRatio}, a
     * percentage: G1 leaves it in a region at most that share short of full, Serial up to that share of its old
     * generation's capacity, Parallel in its dense prefix, where it is the least it allows), which the collection before
     * an OutOfMemoryError frees; ZGC fails with the room of the pages it does not relocate still free
     * ({@code ZFragmentationLimit}); Shenandoah's last resort is a full compaction: none.
     */
    default HeapSlack slack() {
        return HeapSlack.NONE;
    }

    /**
     * Whether the last whole-heap collection compacted everything, so its figure holds no dead wood: Serial's every
     * {@code MarkSweepAlwaysCompactCount}-th ({@link HeapSlack#fullCompactionEvery}); false where none is known to.
     */
    default boolean lastWholeHeapCompactedFully() {
        return false;
    }

    /** The process's CPU time, or -1 where the JVM does not report it. */
    long processCpuNanos();

    /** The {@code System.nanoTime()} at or before the collectors' millisecond clock (the JVM's uptime) read 0. */
    long originNanos();

    /**
     * Calls {@code listener} after collections until the subscription is closed, on a thread of the JVM's
     * or of heaptap's (what it allocates there is marked as heaptap's before the listener runs): after
     * each one that can prove liveness ({@link MarkingClock.Kind} other than NONE), and, of the others,
     * after the last of those that ended since the previous call, within {@link PlatformGcBeans#POLL_MILLIS}
     * ms. Pauses within concurrent cycles other than G1's are not reported.
     */
    Subscription subscribe(Consumer<Collection> listener);

    /**
     * As {@link #subscribe}, but only the collections that can prove liveness, as they end: nothing is
     * polled for this listener, so nothing of heaptap's runs between collections for it.
     */
    Subscription subscribeWholeHeap(Consumer<Collection> listener);

    /**
     * Collections so far: the cycles of every collector, without the "Pauses" beans of ZGC and
     * Shenandoah and G1's "Concurrent GC" bean, which count pauses within those cycles again.
     */
    default long collectionCount() {
        long count = 0;
        for (Counters bean : counters()) {
            if (CollectorCost.Kind.ofBean(bean.name()).countsCollections()) {
                count += Math.max(0, bean.collections());
            }
        }
        return count;
    }

    /**
     * Whether the collector collects while the application runs (ZGC, Shenandoah): its heap after GC then also counts
     * what was allocated during the cycle, and its heap inspection marks from the roots instead of walking the heap.
     */
    default boolean collectsConcurrently() {
        return names().stream().anyMatch(n -> n.startsWith("ZGC") || n.startsWith("Shenandoah"));
    }

    /** The collector's usual name, from its beans' names (the only place the JDK states it). */
    default String collectorName() {
        List<String> names = names();
        if (names.stream().anyMatch(n -> n.startsWith("G1 "))) {
            return "G1";
        }
        if (names.stream().anyMatch(n -> n.startsWith("PS "))) {
            return "Parallel";
        }
        if (names.contains("Copy") || names.contains("MarkSweepCompact")) {
            return "Serial";
        }
        if (names.stream().anyMatch(n -> n.startsWith("ZGC Minor") || n.startsWith("ZGC Major"))) {
            return "ZGC (generational)";
        }
        if (names.stream().anyMatch(n -> n.startsWith("ZGC"))) {
            return "ZGC";
        }
        if (names.stream().anyMatch(n -> n.startsWith("Shenandoah"))) {
            return generationalShenandoah() ? "Shenandoah (generational)" : "Shenandoah";
        }
        return names.isEmpty() ? "none reported" : String.join(", ", names);
    }
}
