package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The JVM is asked to notify only the collections that can prove liveness; the others, young ones
 * nearly all, still reach every subscriber, read by heaptap's poll, with the heap around them.
 */
class PlatformGcBeansTest {
    static volatile Object sink;

    @Test
    void onlyTheBeansThatCanProveLivenessAreNotifiedAndTheOtherCollectionsArePolled() {
        for (String bean : List.of("G1 Old Generation", "G1 Concurrent GC", "PS MarkSweep", "MarkSweepCompact", "ZGC Cycles",
                "ZGC Major Cycles", "Shenandoah Cycles")) {
            assertTrue(PlatformGcBeans.notified(bean), bean);
        }
        for (String bean : List.of("G1 Young Generation", "PS Scavenge", "Copy", "ZGC Minor Cycles")) {
            assertFalse(PlatformGcBeans.notified(bean), bean);
            assertTrue(PlatformGcBeans.polled(bean), bean);
        }
        for (String bean : List.of("ZGC Pauses", "Shenandoah Pauses", "G1 Old Generation", "ZGC Cycles")) {
            assertFalse(PlatformGcBeans.polled(bean), bean + ": pauses within cycles are needed by nobody, whole-heap ones are notified");
        }
        assertFalse(PlatformGcBeans.notified("ZGC Pauses") || PlatformGcBeans.notified("Shenandoah Pauses"));
    }

    @Test
    void aYoungCollectionReachesTheSubscriberByThePollWithTheHeapAroundIt() throws Exception {
        List<com.sun.management.GarbageCollectorMXBean> young = polledBeans();
        CompletableFuture<GcBeans.Collection> seen = new CompletableFuture<>();
        PlatformGcBeans beans = new PlatformGcBeans();
        try (GcBeans.Subscription subscription = beans.subscribe(c -> {
            if (!PlatformGcBeans.notified(c.gcName())) {
                seen.complete(c);
            }
        })) {
            youngCollection(young);
            GcBeans.Collection collection = seen.get(1, TimeUnit.MINUTES);
            assertTrue(young.stream().anyMatch(b -> b.getName().equals(collection.gcName())), collection.toString());
            assertEquals("", collection.cause(), "the poll cannot know the cause");
            assertTrue(collection.heapUsedBefore() > collection.heapUsedAfter(), "a young collection frees its garbage: " + collection);
            assertTrue(collection.id() > 0 && collection.endMillis() >= collection.startMillis() && collection.stands() >= 1,
                    collection.toString());
        }
    }

    /**
     * The live tracking's subscription goes on after a capture: it hears full collections as they end, and
     * no poll runs for it. The GC cost's subscription starts the poll, and closing it stops the poll again.
     */
    @Test
    void aWholeHeapSubscriptionHearsFullCollectionsAndRunsNoPoll() throws Exception {
        PlatformGcBeans beans = new PlatformGcBeans();
        CompletableFuture<GcBeans.Collection> full = new CompletableFuture<>();
        try (GcBeans.Subscription wholeHeap = beans.subscribeWholeHeap(full::complete)) {
            assertTrue(pollThreads().isEmpty(), "no poll for a whole-heap subscription");
            System.gc();
            GcBeans.Collection collection = full.get(1, TimeUnit.MINUTES);
            assertTrue(PlatformGcBeans.notified(collection.gcName()), collection.toString());
            try (GcBeans.Subscription everything = beans.subscribe(c -> { })) {
                assertEquals(1, pollThreads().size(), "every collection: the poll runs");
            }
            for (Thread poll : pollThreads()) {
                poll.join(TimeUnit.MINUTES.toMillis(1));
            }
            assertTrue(pollThreads().isEmpty(), "the poll ends with the last subscription that needs it");
        }
    }

    /**
     * After a forced collection, young collections fill the survivor space again; the pools' collection usage counts
     * those survivors, and the forced collection's own figure does not: that is the one a census after it reads.
     */
    @Test
    void theWholeHeapFigureIsTheForcedCollectionsOwnNotTheSurvivorsOfYoungOnesAfterIt() {
        PlatformGcBeans beans = new PlatformGcBeans();
        System.gc();
        long afterFull = beans.heapAfterWholeHeapCollection();
        assertTrue(afterFull > 0, "the forced collection reports a figure: " + afterFull);
        List<com.sun.management.GarbageCollectorMXBean> young = polledBeans();
        Object[] survivors = new Object[256];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < survivors.length; j++) {
                survivors[j] = new byte[4 * 1024];  // held across the young collections below: survivors
            }
            youngCollection(young);
        }
        assertTrue(beans.heapAfterGc() > afterFull, "the pools' usage counts the survivors: " + beans.heapAfterGc() + " vs " + afterFull);
        assertEquals(afterFull, beans.heapAfterWholeHeapCollection(), "the forced collection's figure stands");
        sink = survivors;
    }

    /** The test JVM runs HotSpot's defaults: a stop-the-world collector that may leave 5% dead wood, and no reserve. */
    @Test
    void theSlackIsTheJvmsMarkSweepDeadRatio() {
        assertEquals(new io.heaptap.profile.census.HeapSlack(0.05, 0, 0), new PlatformGcBeans().slack());
    }

    private static List<Thread> pollThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("heaptap-gc-poll") && t.isAlive()).toList();
    }

    /** The beans of this JVM's collector that {@link PlatformGcBeans} polls. */
    static List<com.sun.management.GarbageCollectorMXBean> polledBeans() {
        List<com.sun.management.GarbageCollectorMXBean> polled = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(b -> PlatformGcBeans.polled(b.getName()))
                .map(b -> (com.sun.management.GarbageCollectorMXBean) b).toList();
        assertFalse(polled.isEmpty(), "the test JVM's collector has young collections");
        return polled;
    }

    /** Allocates garbage until one of these beans counts a collection more. */
    static void youngCollection(List<? extends GarbageCollectorMXBean> beans) {
        long before = count(beans);
        for (int i = 0; i < 1_000_000; i++) {
            sink = new byte[64 * 1024];
            if (count(beans) != before) {
                return;
            }
        }
        fail("64 GiB allocated and no young collection");
    }

    private static long count(List<? extends GarbageCollectorMXBean> beans) {
        return beans.stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }
}
