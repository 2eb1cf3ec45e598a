package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveHold;
import io.heaptap.profile.format.LiveSummary;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What live tracking may hold back of the application's heap, through the session: the byte bound each
 * capture gives the native table, a request beyond the cap refused, continuous mode without tracking where
 * weak references keep young garbage, and a critical heap that makes tracking let go.
 */
class LiveFootprintTest {
    static final String[] GENERATIONAL_ZGC = {"ZGC Minor Cycles", "ZGC Minor Pauses", "ZGC Major Cycles", "ZGC Major Pauses"};
    static final String[] G1 = {"G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation"};

    @TempDir
    Path tmp;
    private Controller controller;

    @AfterEach
    void close() {
        if (controller != null) {
            controller.reset();
        }
    }

    private static CaptureOptions capture() {
        return new CaptureOptions(Duration.ofMinutes(1), 64 * 1024, CaptureOptions.DEFAULT_DEPTH, CaptureOptions.DEFAULT_MAX_STACKS, true,
                CaptureOptions.DEFAULT_LIVE_BUDGET);
    }

    private Controller controller(FakeSampler sampler, String... beans) {
        controller = new Controller(new DumpDirectory(tmp.resolve("dumps")), sampler, null, new FakeGcBeans(beans));
        return controller;
    }

    @Test
    void aCaptureOnGenerationalZgcGivesTheTableTheStrictBoundAndItsViewsSayIt() {
        FakeSampler sampler = new FakeSampler();
        sampler.live.hold = new LiveHold(0, 3L << 20, 5L << 20, 12, 340, 1, 0, 0, 65536, 0, false, "");
        controller(sampler, GENERATIONAL_ZGC).start(capture(), "test");
        long max = Runtime.getRuntime().maxMemory();
        assertEquals((long) (max * 0.015), sampler.lastByteBudget + sampler.lastLargeByteBudget, "1.5% of the heap, both strata");
        assertTrue(sampler.lastLargeByteBudget > 0, "the large stratum has its own byte rule");
        assertTrue(sampler.lastYoungHeld, "young objects count from their admission: young cycles leave their references set");
        controller.stop();
        AllocationProfile profile = controller.profile(LiveFilter.NONE, false);
        LiveHold hold = profile.liveInfo().hold();
        assertTrue(hold.strict());
        assertEquals(0.015, hold.share(), 1e-12);
        assertEquals("ZGC (generational)", hold.collector());
        List<String> lines = LiveSummary.lines(profile, "capture");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("tracking holds 3.0 MiB not yet examined")
                && l.contains("(1.5% of the heap, strict: ZGC (generational) keeps weakly referenced young garbage)")
                && l.contains("thinned by it 12 times (340 objects let go)") && l.contains("1 sampled objects larger than the bound")),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("too thin to say much: 0 tracked objects")), String.join("\n", lines));
    }

    @Test
    void aBoundBeyondAQuarterOfTheHeapIsRefusedBeforeAnythingStarts() {
        FakeSampler sampler = new FakeSampler();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> controller(sampler, G1).start(capture().withLiveBytes(0.3), "test"));
        assertTrue(e.getMessage().startsWith("live bytes 30.0% is more than tracking may hold back of this heap: at most 25%"),
                e.getMessage());
        assertEquals(0, sampler.starts);
        controller.start(capture().withLiveBytes(0.1), "test");
        assertEquals((long) (Runtime.getRuntime().maxMemory() * 0.1), sampler.lastByteBudget + sampler.lastLargeByteBudget);
    }

    @Test
    void continuousSamplingTracksNothingOnGenerationalZgcAndSaysSo() {
        FakeSampler sampler = new FakeSampler();
        controller(sampler, GENERATIONAL_ZGC).startContinuous(null, "test");
        assertEquals(0, sampler.lastLiveBudget, "no live tracking by default where weak references keep young garbage");
        assertFalse(controller.continuous().options().live());
        controller.stopContinuous();
    }

    @Test
    void continuousSamplingTracksUnderTheBoundOnG1() {
        FakeSampler sampler = new FakeSampler();
        controller(sampler, G1).startContinuous(null, "test");
        assertEquals(CaptureOptions.DEFAULT_LIVE_BUDGET, sampler.lastLiveBudget);
        assertEquals((long) (Runtime.getRuntime().maxMemory() * 0.05), sampler.lastByteBudget + sampler.lastLargeByteBudget);
        assertFalse(sampler.lastYoungHeld, "G1's young collections clear weak references to dead young objects");
        controller.stopContinuous();
    }

    @Test
    void aCriticalHeapMakesTrackingLetGoOfEverythingNotYetExamined() {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans(G1);  // heap max 1 GiB
        sampler.hold = new LiveHold(10L << 20, 4L << 20, 4L << 20, 0, 0, 0, 0, 0, 0, 0, false, "");
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1));
        tracker.start();
        try {
            beans.heapAfterGc = 800L << 20;  // 78%: not critical
            twoCleanings(sampler);
            assertEquals(0, sampler.releases.get(), "78% of the heap after GC is not critical");

            beans.heapAfterGc = 990L << 20;  // 97%
            sampler.finishCollection();
            awaitTrue(() -> sampler.releases.get() == 1, "a critical heap made tracking let go of nothing");
            assertEquals(990L << 20, tracker.lastCriticalHeap());
            assertEquals(0, sampler.hold.unexaminedBytes());
        } finally {
            tracker.stop();
        }
    }

    @Test
    void onGenerationalZgcTheHeapIsJudgedCriticalAfterWholeHeapCyclesOnly() {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans(GENERATIONAL_ZGC);  // heap max 1 GiB
        sampler.hold = new LiveHold(10L << 20, 4L << 20, 4L << 20, 0, 0, 0, 0, 0, 0, 0, true, "");
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1));
        tracker.start();
        try {
            // 97%, as the pools read after young cycles under flat-out allocation. The beans report a collection on
            // the thread that posts it, so what the tracker makes of one is done when collect returns.
            beans.heapAfterGc = 990L << 20;
            beans.collect("ZGC Minor Cycles", "Allocation Rate", 5, 995L << 20, 990L << 20);
            beans.collect("ZGC Minor Cycles", "Allocation Rate", 5, 995L << 20, 990L << 20);
            assertEquals(0, sampler.releases.get(), "a young cycle's heap after GC counts garbage only a whole-heap cycle frees");

            beans.collect("ZGC Major Cycles", "Allocation Rate", 20, 995L << 20, 990L << 20);
            assertEquals(1, sampler.releases.get(), "a critical heap after a whole-heap cycle made tracking let go of nothing at once");
            assertEquals(990L << 20, tracker.lastCriticalHeap());
        } finally {
            tracker.stop();
        }
    }

    @Test
    void onGenerationalZgcWholeHeapCyclesWakeNoCleaningBeforeItsPeriod() throws InterruptedException {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans(GENERATIONAL_ZGC);
        // heaptap-live's period, held by the test: each pause waits for a permit, and says it began.
        Semaphore periodsEnded = new Semaphore(0);
        BlockingQueue<Long> pausesBegun = new LinkedBlockingQueue<>();
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1), millis -> {
            pausesBegun.add(millis);
            periodsEnded.acquire();
        });
        tracker.start();
        try {
            assertEquals(TimeUnit.DAYS.toMillis(1), pausesBegun.poll(1, TimeUnit.MINUTES), "heaptap-live did not wait out a period");
            // Twenty whole-heap cycles within one period, as ZGC runs five a second at 256 MiB under flat-out allocation:
            // the cycles reach the bound's clock at once, and the period ends in one cleaning, not twenty.
            for (int i = 0; i < 20; i++) {
                beans.collect("ZGC Major Cycles", "System.gc()", 20, 600L << 20, 500L << 20);
            }
            assertTrue(sampler.provenBefore > Long.MIN_VALUE, "the cycles did not reach the bound's clock");
            assertEquals(0, sampler.maintenances.get(), "whole-heap cycles woke a cleaning before the period ended");
            periodsEnded.release();
            assertEquals(TimeUnit.DAYS.toMillis(1), pausesBegun.poll(1, TimeUnit.MINUTES), "heaptap-live did not wait out a second period");
            assertEquals(1, sampler.maintenances.get(), "one period, one cleaning");
        } finally {
            tracker.stop();
        }
    }

    @Test
    void aWholeHeapMarkingMovesTheBoundsClock() {
        FakeLiveTracking sampler = new FakeLiveTracking();
        FakeGcBeans beans = new FakeGcBeans("PS Scavenge", "PS MarkSweep");
        LiveTracker tracker = new LiveTracker(sampler, beans, TimeUnit.DAYS.toMillis(1));
        tracker.start();
        try {
            assertEquals(Long.MIN_VALUE, sampler.provenBefore);
            beans.collect("PS MarkSweep", "System.gc()", 20, 0, 0);
            assertEquals(tracker.markings().provenBeforeNanos(), sampler.provenBefore, "the table learns of the marking at once");
            assertTrue(sampler.provenBefore > Long.MIN_VALUE);
        } finally {
            tracker.stop();
        }
    }

    /** Posts two collections and waits for the cleaning after each: the critical check follows the cleaning, so it ran once at least. */
    private static void twoCleanings(FakeLiveTracking sampler) {
        long cleanings = sampler.maintenances.get();
        sampler.finishCollection();
        awaitTrue(() -> sampler.maintenances.get() > cleanings, "a collection woke no cleaning");
        sampler.finishCollection();
        awaitTrue(() -> sampler.maintenances.get() > cleanings + 1, "a collection woke no cleaning");
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String failure) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, failure);
            Thread.onSpinWait();
        }
    }
}
