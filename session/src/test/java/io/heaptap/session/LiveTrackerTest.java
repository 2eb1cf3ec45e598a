package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The live tracking's GC clock and marking clock, fed by collectors the test drives. */
class LiveTrackerTest {
    @Test
    void eachCollectionMovesTheGcClockAndWholeHeapOnesTheMarkingClock() {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans("PS Scavenge", "PS MarkSweep");
        beans.collect("PS Scavenge", "Allocation Failure", 1, 0, 0);
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1));  // no cleaning but after collections
        tracker.start();
        try {
            assertEquals(1, sampler.gcCount, "the clock starts at the collections so far");
            // Young collections: their bean is not notified, the JVMTI finish wakes heaptap-live, which reads the count.
            beans.collect("PS Scavenge", "Allocation Failure", 1, 0, 0);
            beans.collect("PS Scavenge", "Allocation Failure", 1, 0, 0);
            assertEquals(1, sampler.gcCount, "a young collection's bean is not heard");
            assertACleaningFollows(sampler, sampler::finishCollection, "the JVMTI event woke no cleaning");
            assertEquals(3, sampler.gcCount);
            assertEquals(0, tracker.markings().completed(), "young collections prove nothing");
            beans.collect("PS MarkSweep", "System.gc()", 20, 0, 0);
            assertEquals(4, sampler.gcCount);
            assertEquals(1, tracker.markings().completed(), "a full collection is a whole-heap marking");
        } finally {
            tracker.stop();
        }
        assertEquals(0, beans.subscribers(), "stop ends the subscription");
        beans.collect("PS MarkSweep", "System.gc()", 20, 0, 0);
        assertEquals(4, sampler.gcCount, "nothing heard after stop");
    }

    @Test
    void aCollectionSeenOnlyAsAJvmtiEventCleansTheLiveTableAtOnce() throws Exception {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans("G1 Young Generation", "G1 Old Generation");
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1));  // no cleaning but after collections
        tracker.start();
        try {
            for (int gc = 0; gc < 3; gc++) {
                assertACleaningFollows(sampler, sampler::finishCollection, "the JVMTI event alone woke no cleaning");  // a young pause: no bean notifies it
            }
        } finally {
            tracker.stop();
        }
        assertFalse(liveThreadRunning(), "stop ended heaptap-live, though it sleeps until a signal (a day at most here)");
    }

    @Test
    void aCollectionABeanReportsAlsoWakesTheCleaning() {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans("ZGC Cycles", "ZGC Pauses");  // posts no JVMTI GC events
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1));
        tracker.start();
        try {
            assertACleaningFollows(sampler, () -> beans.collect("ZGC Cycles", "Allocation Rate", 5, 0, 0), "the bean's report woke no cleaning");
        } finally {
            tracker.stop();
        }
        assertFalse(liveThreadRunning());
    }

    @Test
    void afterEachPauseTheAgentIsToldTheFinishesReadTogetherWithTheCollections() throws Exception {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation");
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1));
        tracker.start();
        try {
            assertEquals(0, sampler.gcFinishesRead, "the first reading, at the start");
            // A Remark: a JVMTI finish, and no bean that counts collections moved. The agent tells it apart by that.
            assertACleaningFollows(sampler, sampler::finishCollection, "the finish woke no cleaning");
            assertEquals(1, sampler.gcFinishesRead, "read after the pause, before the cleaning");
            assertEquals(0, sampler.gcCount);
            // A young collection: its bean and the finishes both move.
            assertACleaningFollows(sampler, () -> {
                beans.collectSeveral("G1 Young Generation", "G1 Evacuation Pause", 1, 1, 0, 0);
                sampler.finishCollection();
            }, "the finish woke no cleaning");
            assertEquals(2, sampler.gcFinishesRead);
            assertEquals(1, sampler.gcCount);
        } finally {
            tracker.stop();
        }
    }

    /** Waits (a minute at most: the tracker's idle cleaning is a day) for a cleaning after {@code collection}. */
    private static void assertACleaningFollows(FakeLiveTracking sampler, Runnable collection, String failure) {
        long before = sampler.maintenances.get();
        collection.run();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (sampler.maintenances.get() == before) {
            assertTrue(System.nanoTime() < deadline, failure);
            Thread.onSpinWait();
        }
    }

    private static boolean liveThreadRunning() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("heaptap-live") && t.isAlive());
    }

    @Test
    void concurrentCyclesPausesAreNotCollections() {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation");
        LiveTracker tracker = new LiveTracker(sampler, beans);
        tracker.start();
        try {
            beans.collect("G1 Young Generation", "G1 Evacuation Pause", 1, 0, 0);
            beans.collect("G1 Concurrent GC", "G1 Remark", 1, 0, 0);
            beans.collect("G1 Concurrent GC", "G1 Cleanup", 1, 0, 0);
            assertEquals(1, sampler.gcCount, "the Remark and Cleanup pauses are inside a cycle, not collections");
        } finally {
            tracker.stop();
        }
    }
}
