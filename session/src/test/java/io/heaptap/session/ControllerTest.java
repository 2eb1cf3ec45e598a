package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.LeakWatchOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.Markings;
import io.heaptap.profile.census.CensusReading;
import io.heaptap.profile.format.ProfileFormat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session's logic against a fake sampler: the state machine and its refusals, the time box,
 * the leak watch's re-arming, and forced collections on the marking clock. The same behaviour
 * end to end, with the native agent in real JVMs, is what the integration tests check.
 */
class ControllerTest {
    /** Generous: a loaded 2-core machine may be slow to run a timer, never this slow. */
    private static final long AWAIT_SECONDS = 60;

    @TempDir
    Path tmp;
    private FakeSampler sampler;
    private Controller controller;
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    @BeforeEach
    void newController() {
        sampler = new FakeSampler();
        controller = new Controller(new DumpDirectory(tmp.resolve("dumps")), sampler, null);
        controller.addListener(new SessionListener() {
            @Override
            public void captureStarted(SessionStatus status) {
                events.add("started");
            }

            @Override
            public void captureEnded(SessionStatus status, String reason) {
                events.add("ended: " + reason);
            }
        });
    }

    @AfterEach
    void reset() {
        controller.stopContinuous();
        controller.reset();  // stops the live tracker's thread and the fake's sampling
    }

    private static CaptureOptions capture(Duration duration) {
        return new CaptureOptions(duration, 64 * 1024, CaptureOptions.DEFAULT_DEPTH, CaptureOptions.DEFAULT_MAX_STACKS, true,
                CaptureOptions.DEFAULT_LIVE_BUDGET);
    }

    private String nextEvent() throws InterruptedException {
        String event = events.poll(AWAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(event, "no session event within " + AWAIT_SECONDS + " s");
        return event;
    }

    @Test
    void idleThenRecordingThenStoppedThenIdleAgain() throws Exception {
        assertEquals(SessionState.IDLE, controller.status().state());
        assertEquals(0, controller.status().samples());
        assertThrows(SessionConflictException.class, () -> controller.profile(LiveFilter.NONE, false), "nothing to dump when idle");

        Instant startedAt = controller.start(capture(Duration.ofMinutes(1)), "test\u001b[31m client");
        SessionStatus started = controller.status();
        assertEquals(startedAt, started.startedAt());
        assertEquals(SessionState.RECORDING, started.state());
        assertEquals("test\\x1b[31m client", started.startedBy(), "the client label is escaped where it is set");
        assertEquals(64 * 1024, sampler.lastInterval);
        assertEquals(Duration.ofMinutes(1), sampler.lastDuration, "the native sampler gets the time box too");
        assertEquals(CaptureOptions.DEFAULT_LIVE_BUDGET, sampler.lastLiveBudget);
        assertEquals("started", nextEvent());

        SessionConflictException second = assertThrows(SessionConflictException.class,
                () -> controller.start(capture(Duration.ofMinutes(1)), "another client"));
        assertTrue(second.getMessage().contains("already running") && second.getMessage().contains("test\\x1b[31m client"),
                second.getMessage());
        assertEquals(1, sampler.starts, "a refused start does not touch the sampler");

        controller.stop();
        assertEquals("ended: stopped", nextEvent());
        assertEquals(SessionState.STOPPED, controller.status().state());
        assertEquals(1, sampler.stops);
        AllocationProfile profile = controller.profile(LiveFilter.NONE, false);
        assertEquals(7, profile.info().samples(), "the last capture stays available after stop");
        controller.stop();
        assertEquals(1, sampler.stops, "stop is harmless when nothing records");

        controller.reset();
        assertEquals(SessionState.IDLE, controller.status().state());
        assertEquals(1, sampler.clears);
        assertThrows(SessionConflictException.class, () -> controller.profile(LiveFilter.NONE, false));
        controller.start(capture(Duration.ofMinutes(1)), "again");
        assertEquals(SessionState.RECORDING, controller.status().state());
    }

    @Test
    void aStartTheSamplerRefusesLeavesTheSessionIdle() {
        sampler.refuseStart = new NativeAgentException(NativeAgentException.Reason.CAPABILITY_HELD, "another agent holds it");
        SessionConflictException e = assertThrows(SessionConflictException.class,
                () -> controller.start(capture(Duration.ofMinutes(1)), "cli"));
        assertEquals("another agent holds it", e.getMessage());
        assertEquals(SessionState.IDLE, controller.status().state());
        controller.start(capture(Duration.ofMinutes(1)), "cli");
        assertEquals(SessionState.RECORDING, controller.status().state());
    }

    @Test
    void withoutASamplerEveryCaptureIsRefusedWithTheReason() {
        Controller none = new Controller(new DumpDirectory(tmp.resolve("none")), null, "libheaptap.so could not be loaded");
        AgentUnavailableException e = assertThrows(AgentUnavailableException.class,
                () -> none.start(capture(Duration.ofMinutes(1)), "cli"));
        assertTrue(e.getMessage().endsWith("libheaptap.so could not be loaded"), e.getMessage());
        assertThrows(AgentUnavailableException.class, () -> none.startLeakWatch(
                new LeakWatchOptions(Duration.ofMinutes(1), Duration.ofSeconds(5), 512 * 1024, false), "cli"));
        assertThrows(AgentUnavailableException.class, () -> none.classCensus(10));
        assertEquals("libheaptap.so could not be loaded", none.status().nativeError());
        assertEquals(SessionState.IDLE, none.status().state());
        none.reset();  // harmless without a sampler
    }

    @Test
    void theTimeBoxStopsTheCapture() throws Exception {
        controller.start(capture(Duration.ofMillis(200)), "cli");
        assertEquals("started", nextEvent());
        assertEquals("ended: time box ended", nextEvent());
        assertEquals(SessionState.STOPPED, controller.status().state());
        assertEquals(0, controller.status().timeLeftMillis());
        assertEquals(1, sampler.stops);
        assertTrue(!sampler.sampling, "the sampler was told to stop");
    }

    /**
     * A scrape's window ends on the HTTP endpoint's timer and its capture's time box on the controller's:
     * the answer ends the capture if the box has not yet (so a start right after it is not refused), and
     * never answers with another capture that replaced it meanwhile.
     */
    @Test
    void aScrapesAnswerEndsItsCaptureAndRefusesOneThatReplacedIt() throws Exception {
        Instant scraped = controller.start(capture(Duration.ofMinutes(10)), "pprof scrape from 127.0.0.1");
        assertEquals("started", nextEvent());
        AllocationProfile answered = controller.withScrapedCaptureProfile(scraped, false, null, p -> p);
        assertEquals("ended: time box ended", nextEvent());
        assertEquals(SessionState.STOPPED, controller.status().state());
        assertEquals(scraped, answered.info().startedAt());

        Instant later = controller.start(capture(Duration.ofMinutes(10)), "cli");
        assertEquals("started", nextEvent());
        SessionConflictException replaced = assertThrows(SessionConflictException.class,
                () -> controller.withScrapedCaptureProfile(scraped, false, null, p -> p));
        assertTrue(replaced.getMessage().contains("replaced during its window by one started by cli"), replaced.getMessage());
        assertEquals(SessionState.RECORDING, controller.status().state(), "the capture that replaced it goes on");
        assertEquals(later, controller.status().startedAt());
    }

    /** A watch's history keeps a quarter of heaptap's heap budget from its start until a reset, never for a refused start. */
    @Test
    void aLeakWatchsHistoryHoldsItsShareOfTheHeapBudgetUntilAReset() throws Exception {
        long share = controller.heapBudget().bytes() / LeakWatch.HISTORY_SHARE;
        controller.start(capture(Duration.ofMinutes(10)), "cli");
        assertEquals("started", nextEvent());
        LeakWatchOptions watch = new LeakWatchOptions(Duration.ofMinutes(10), Duration.ofMinutes(1), 512 * 1024, false);
        assertThrows(SessionConflictException.class, () -> controller.startLeakWatch(watch, "cli"));
        assertEquals(0, controller.heapBudget().keptBytes(), "a refused watch keeps nothing");
        controller.stop();
        assertEquals("ended: stopped", nextEvent());

        controller.startLeakWatch(watch, "cli");
        assertEquals("started", nextEvent());
        assertEquals(share, controller.heapBudget().keptBytes());
        assertEquals(share, controller.leakReport().watch().history().boundBytes());
        controller.stopLeakWatch();
        awaitWatchState("ended");
        assertEquals(share, controller.heapBudget().keptBytes(), "the ended watch's report stays readable, and its history with it");
        controller.reset();
        assertEquals(0, controller.heapBudget().keptBytes());
    }

    /** The rehearsal's failures are swallowed in a watch (it is only a help): here they would show. */
    @Test
    void aSnapshotRehearsalRunsTheWholeSnapshotPathWithACensus() throws Exception {
        controller.startLeakWatch(new LeakWatchOptions(Duration.ofMinutes(10), Duration.ofMinutes(1), 512 * 1024, true), "cli");
        assertEquals("started", nextEvent());
        for (io.heaptap.profile.census.HeapReading reading : io.heaptap.profile.census.HeapReading.values()) {
            SnapshotRehearsal.run(controller, controller.leakReport().watch(), true, reading, new io.heaptap.profile.census.HeapSlack(0.05, 0.05, 0));
        }
        SnapshotRehearsal.run(controller, controller.leakReport().watch(), false, io.heaptap.profile.census.HeapReading.COLLECTOR, new io.heaptap.profile.census.HeapSlack(0.05, 0, 0));
    }

    @Test
    void aLeakWatchReArmsItsCaptureWhenTheCaptureEndsFirstAndEndsWhenAUserStopsIt() throws Exception {
        controller.startLeakWatch(new LeakWatchOptions(Duration.ofMinutes(10), Duration.ofMinutes(1), 512 * 1024, false), "cli");
        assertEquals("started", nextEvent());
        assertEquals("watching", controller.leakWatchState());
        assertTrue(sampler.lastDuration.compareTo(Duration.ofMinutes(11)) <= 0
                && sampler.lastDuration.compareTo(Duration.ofMinutes(10)) > 0, "the box is the watch plus one step: " + sampler.lastDuration);
        assertTrue(controller.status().startedBy().startsWith("leak watch of cli"), controller.status().startedBy());

        // The capture ends before the watch (as its 24 h box would, or a scrape whose client went away): re-armed.
        controller.stopIfStartedAt(controller.status().startedAt(), "the scrape's client went away");
        assertEquals("ended: the scrape's client went away", nextEvent());
        assertEquals("started", nextEvent());
        assertEquals(2, sampler.starts);
        assertEquals(SessionState.RECORDING, controller.status().state());
        assertEquals("watching", controller.leakWatchState());

        // A user's stop ends the watch too.
        controller.stop();
        assertEquals("ended: stopped", nextEvent());
        awaitWatchState("ended");  // the watch hears of the stop on its timer, not under the session's lock
        assertEquals("the capture was stopped", controller.leakReport().watch().endReason());
        assertEquals(2, sampler.starts, "not re-armed after a user's stop");
    }

    /**
     * Regression: a watch's timer tasks acted on whatever watch was running when they got the lock.
     * Ending a watch cancels its tasks, but not one that already fired and waits for the lock: its
     * step took a snapshot for the next watch, and its end (behind a long dump, say) could end the
     * next watch at once ("duration reached"). Here the first watch's step fires while the test holds
     * the watch's lock, and runs once the second watch has started. The first watch's capture ends
     * meanwhile too, and that news must not end the second watch.
     */
    @Test
    void aWatchsTimerTasksNeverActOnTheWatchStartedAfterIt() throws Exception {
        long timer;
        synchronized (controller.leakWatchLock()) {
            controller.startLeakWatch(new LeakWatchOptions(Duration.ofSeconds(1), Duration.ofSeconds(1), 512 * 1024, false), "first");
            timer = awaitTimer(info -> info.getThreadState() == Thread.State.BLOCKED && info.getLockInfo() != null
                    && info.getLockInfo().getIdentityHashCode() == System.identityHashCode(controller.leakWatchLock()),
                    "blocked on the watch's lock");
            controller.stopLeakWatch();
            controller.startLeakWatch(new LeakWatchOptions(Duration.ofMinutes(10), Duration.ofMinutes(1), 512 * 1024, false), "second");
        }
        // The first watch's step has run when the timer waits for its next task (the second watch's, a minute away).
        awaitTimer(info -> info.getThreadId() == timer && info.getThreadState() == Thread.State.TIMED_WAITING
                && Arrays.stream(info.getStackTrace()).noneMatch(f -> f.getClassName().equals(LeakWatch.class.getName())), "idle");
        assertEquals("watching", controller.leakWatchState());
        assertTrue(controller.status().startedBy().startsWith("leak watch of second"), controller.status().startedBy());
        assertEquals(0, controller.leakReport().watch().snapshots(), "the second watch's first step is a minute away");
    }

    /**
     * The watch decodes its snapshots under its own lock, so a status, a user's stop and the watch's own
     * figures never wait for one: here another thread holds the watch's lock (as a long snapshot would).
     */
    @Test
    void aWatchBusyWithASnapshotHoldsUpNeitherTheStatusNorAStop() throws Exception {
        controller.startLeakWatch(new LeakWatchOptions(Duration.ofMinutes(10), Duration.ofMinutes(1), 512 * 1024, false), "cli");
        assertEquals("started", nextEvent());
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread snapshot = new Thread(() -> {
            synchronized (controller.leakWatchLock()) {
                held.countDown();
                awaitQuietly(release);
            }
        });
        snapshot.start();
        try {
            held.await();
            assertTimeoutPreemptively(Duration.ofSeconds(AWAIT_SECONDS), () -> {
                assertEquals(SessionState.RECORDING, controller.status().state());
                assertEquals("watching", controller.leakWatchState());
                assertEquals(0, controller.leakReport().watch().snapshots());
                controller.stop();
                assertEquals(SessionState.STOPPED, controller.status().state());
            }, "the session waited for the watch's lock");
        } finally {
            release.countDown();
            snapshot.join();
        }
        awaitWatchState("ended");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the leak watch is in the state named. */
    private void awaitWatchState(String state) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (!controller.leakWatchState().equals(state)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the leak watch stayed " + controller.leakWatchState() + ", never " + state);
            }
            Thread.onSpinWait();
        }
    }

    /** This controller's timer thread once it is in the state asked for; its id. */
    private long awaitTimer(Predicate<ThreadInfo> state, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
                if (info.getThreadName().equals("heaptap-timer") && state.test(info)) {
                    return info.getThreadId();
                }
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the controller's timer was never " + what);
    }

    /**
     * ZGC's and Shenandoah's census marks from every root, weak ones too, so it counts heaptap's samples that no marking has
     * examined: a census on its own leaves them out and says how much; a collector whose census walks the heap keeps its
     * census as counted. Here no capture can be decoded, so the agent's total is left out.
     */
    @Test
    void aCensusOnAConcurrentCollectorLeavesOutHeaptapsUnexaminedSamples() {
        long held = 2L << 20;
        sampler.live.hold = new io.heaptap.profile.LiveHold(0, held, held, 0, 0, 0, 0, 0, 0, 0, false, "");
        CensusReading walked = controller.classCensus(3);
        assertEquals(0, walked.heaptapSamplesBytes(), "G1's census is kept as counted");

        FakeSampler zgcSampler = new FakeSampler();
        zgcSampler.live.hold = sampler.live.hold;
        FakeGcBeans zgcBeans = new FakeGcBeans("ZGC Cycles", "ZGC Pauses");
        zgcSampler.onForceGc = () -> zgcBeans.collect("ZGC Cycles", "JVMTI Force GC", 5, 100L << 20, 60L << 20);
        Controller zgc = new Controller(new DumpDirectory(tmp.resolve("zgc")), zgcSampler, null, zgcBeans);
        try {
            CensusReading marked = zgc.classCensus(3);
            assertEquals(held, marked.heaptapSamplesBytes());
            assertTrue(marked.census().totalBytes() > 0, marked.toString());
        } finally {
            zgc.reset();
        }
    }

    @Test
    void aLeakWatchIsRefusedWhileAnotherCaptureRuns() {
        controller.start(capture(Duration.ofMinutes(1)), "someone");
        assertThrows(SessionConflictException.class, () -> controller.startLeakWatch(
                new LeakWatchOptions(Duration.ofMinutes(1), Duration.ofSeconds(5), 512 * 1024, false), "cli"));
        assertEquals("idle", controller.leakWatchState());
        assertEquals("someone", controller.status().startedBy(), "the running capture is left alone");
    }

    /** A census on its own: with no capture, after one forced collection counted on the clock, bounded in its rows. */
    @Test
    void aCensusOnItsOwnFollowsOneForcedCollectionAndNamesAtMostTheClassesAsked() {
        Markings before = controller.markings();
        CensusReading reading = controller.classCensus(3);
        assertEquals(1, sampler.forcedGcs, "one forced collection, through the agent");
        assertEquals(before.forced() + 1, controller.markings().forced());
        assertEquals(3, reading.census().top().size());
        assertTrue(reading.census().restClasses() > 0, "this JVM has more than three classes: the rest is one row");
        assertTrue(reading.census().totalBytes() > 0 && reading.census().heapAfterGcBytes() > 0, reading.toString());
        assertEquals(SessionState.IDLE, controller.status().state(), "no capture was started for it");

        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
                () -> controller.classCensus(Controller.MAX_CENSUS_CLASSES + 1));
        assertTrue(tooMany.getMessage().contains("1 to 1000 classes"), tooMany.getMessage());
        assertThrows(IllegalArgumentException.class, () -> controller.classCensus(0));
        assertEquals(1, sampler.forcedGcs, "a refused census pauses nothing");
    }

    @Test
    void aForcedCollectionCountsOnTheMarkingClockAndARefusalIsSaid() {
        controller.start(capture(Duration.ofMinutes(1)), "cli");
        Markings before = controller.markings();
        assertTrue(controller.forceFullGc() >= 0);
        assertEquals(1, sampler.forcedGcs);
        assertTrue(sampler.live.gcCount >= 0, "the sampler's GC clock is set after the collection");
        Markings after = controller.markings();
        assertEquals(before.forced() + 1, after.forced());
        assertTrue(after.inWindow() >= 1 && after.horizonMillis() >= 0, after.toString());

        sampler.onForceGc = () -> { };  // accepted, but no collection ran (the GC locker was held)
        assertEquals(-1, controller.forceFullGc());
        assertEquals(after.forced(), controller.markings().forced(), "a collection that did not run proves nothing");
        sampler.onForceGc = System::gc;

        sampler.forceGcRefused = true;
        assertEquals(-1, controller.forceFullGc());
        assertEquals(after.forced(), controller.markings().forced(), "a refused collection proves nothing");
        AllocationProfile profile = controller.profile(LiveFilter.NONE, true);
        assertTrue(profile.info().warnings().stream().anyMatch(w -> w.contains("forced full collection was refused")),
                profile.info().warnings().toString());
    }

    /**
     * A capture with a sample-rate target on the session's own timer: the fake application idles at
     * 10 MB/s, storms at 10 GB/s, idles again. The interval drops to the floor, rises in the storm and
     * comes back down; the status and the profile show the range. A fixed interval is never moved.
     */
    @Test
    void aSampleRateTargetMovesTheIntervalWithTheAllocationRate() throws Exception {
        sampler.allocate(10e6);
        CaptureOptions adaptive = CaptureOptions.parse("1m", null, CaptureOptions.DEFAULT_DEPTH, CaptureOptions.DEFAULT_MAX_STACKS,
                true, CaptureOptions.DEFAULT_LIVE_BUDGET);
        assertEquals(CaptureOptions.DEFAULT_SAMPLE_RATE, adaptive.sampleRate(), "the default is a sample-rate target");
        controller.start(adaptive, "test");
        awaitInterval(i -> i == SampleRateGovernor.FLOOR, "idle: the floor");
        sampler.allocate(10e9);
        awaitInterval(i -> i >= 1 << 20, "storm: 10 GB/s at 5,000 samples/s is about 2 MiB");
        long stormInterval = sampler.lastInterval;
        sampler.allocate(10e6);
        awaitInterval(i -> i == SampleRateGovernor.FLOOR, "idle again: back at the floor");

        SessionStatus status = controller.status();
        assertEquals(SampleRateGovernor.FLOOR, status.intervals().minBytes());
        assertTrue(status.intervals().maxBytes() >= stormInterval, status.intervals().toString());
        assertEquals(CaptureOptions.DEFAULT_SAMPLE_RATE, status.intervals().targetRate());
        controller.stop();
        AllocationProfile profile = controller.profile(LiveFilter.NONE, false);
        assertEquals(status.intervals().minBytes(), profile.info().intervals().minBytes());
        assertTrue(profile.info().intervals().maxBytes() >= stormInterval);

        int moves = sampler.intervalsSet.size();
        controller.start(capture(Duration.ofMinutes(1)), "test");
        assertFalse(controller.status().intervals().adaptive(), "--interval fixes the interval");
        assertEquals(64 * 1024, controller.status().intervalBytes());
        controller.stop();
        assertEquals(moves, sampler.intervalsSet.size(), "nothing moved a fixed interval");
    }

    /**
     * The default sampling bounds what samples cost: with each fake sample costing 1 ms of the callback,
     * the budget's share of this JVM's CPU allows its minimum, 1,000 samples/s, so the interval settles
     * five times higher than at 5,000/s; a rate asked for is kept whatever it costs.
     */
    @Test
    void theDefaultSamplingLowersTheRateWhereSamplesAreExpensiveAndAnAskedRateIsKept() throws Exception {
        sampler.allocate(10e9);
        sampler.nanosPerSample = 1e6;
        CaptureOptions byDefault = CaptureOptions.parse("1m", null, CaptureOptions.DEFAULT_DEPTH, CaptureOptions.DEFAULT_MAX_STACKS,
                true, CaptureOptions.DEFAULT_LIVE_BUDGET);
        controller.start(byDefault, "test");
        awaitInterval(i -> i >= 8_000_000, "10 GB/s at the budget's 1,000 samples/s: about 10 MB");
        controller.stop();

        CaptureOptions asked = CaptureOptions.parse("1m", "5000/s", CaptureOptions.DEFAULT_DEPTH, CaptureOptions.DEFAULT_MAX_STACKS,
                true, CaptureOptions.DEFAULT_LIVE_BUDGET);
        controller.start(asked, "test");
        awaitInterval(i -> i <= 2_500_000, "10 GB/s at the 5,000 samples/s asked for: about 2 MB");
        // 15 readings more (the interval is set at each): past the second a cost budget prices samples over.
        int readings = sampler.intervalsSet.size() + 15;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (sampler.intervalsSet.size() < readings) {
            assertTrue(System.nanoTime() < deadline, "the sample-rate target stopped reading");
            Thread.sleep(20);
        }
        assertTrue(sampler.intervalsSet.subList(readings - 15, readings).stream().allMatch(i -> i <= 2_500_000),
                "nothing bounds the asked rate's cost: " + sampler.intervalsSet);
        controller.stop();
    }

    /**
     * Continuous sampling starts the counters from zero: an ended capture nobody has dumped is not
     * thrown away with them; the start is refused until it is dumped (or reset), and the capture stays.
     */
    @Test
    void continuousSamplingIsRefusedWhileTheLastCaptureIsUndumped() throws Exception {
        controller.start(capture(Duration.ofMinutes(1)), "cli");
        sampler.allocate(10e6);
        controller.stop();
        SessionConflictException refused = assertThrows(SessionConflictException.class,
                () -> controller.startContinuous(null, "test"));
        assertTrue(refused.getMessage().contains("the last capture (started by cli") && refused.getMessage().contains("dump it first"),
                refused.getMessage());
        assertNull(controller.continuous());
        assertEquals(SessionState.STOPPED, controller.status().state(), "the capture is still there");
        assertTrue(controller.dump(ProfileFormat.TEXT, LiveFilter.NONE, false).length > 0);

        controller.startContinuous(null, "test");
        assertNotNull(controller.continuous(), "once dumped, continuous sampling starts");
        controller.stopContinuous();

        controller.start(capture(Duration.ofMinutes(1)), "cli");
        controller.stop();
        assertThrows(SessionConflictException.class, () -> controller.startContinuous(null, "again"), "a new capture, undumped");
        controller.reset();
        controller.startContinuous(null, "after reset");
        assertNotNull(controller.continuous(), "a reset drops it explicitly");
    }

    /**
     * Continuous sampling runs with no time box under the sample-rate target; a capture meanwhile is a
     * window over it (a native baseline, then an end), never a restart, a stop or a reset of the
     * sampler; reset is refused while it runs, a different depth is refused, and the window reports
     * the continuous intervals.
     */
    @Test
    void aCaptureDuringContinuousSamplingIsAWindowThatNeitherRestartsNorResetsTheSampler() throws Exception {
        sampler.allocate(10e6);
        ContinuousRun run = controller.startContinuous(null, "test");
        assertTrue(run.options().maxStacks() >= 1024 && run.options().maxStacks() <= CaptureOptions.DEFAULT_MAX_STACKS);
        assertEquals(14_336, ContinuousRun.maxStacksFor(64L << 20), "a full table's scrape fits heaptap's largest heap budget");
        assertEquals(1024, ContinuousRun.maxStacksFor(8L << 20), "never fewer than 1,024 stacks");
        assertEquals(1, sampler.starts);
        assertTrue(sampler.lastDuration.compareTo(Duration.ofDays(365)) > 0, "no time box: " + sampler.lastDuration);
        assertFalse(run.service().isBlank(), "a service name from the main class or jar");
        assertTrue(controller.status().continuous().startsWith("since " + run.since()), controller.status().continuous());
        assertEquals(SessionState.IDLE, controller.status().state(), "no capture yet");
        assertTrue(assertThrows(SessionConflictException.class, () -> controller.startContinuous("x", "again")).getMessage()
                .contains("runs already"));
        awaitInterval(i -> i == SampleRateGovernor.FLOOR, "continuous sampling follows the sample-rate target");
        AllocationProfile cumulative = controller.withContinuousProfile(LiveFilter.NONE, false, null, p -> p);
        assertEquals(run.since(), cumulative.info().startedAt(), "cumulative since continuous sampling began");
        assertTrue(cumulative.info().intervals().adaptive());

        // 2 s, not less: the checks of the running window below must come before its end on a loaded machine.
        controller.start(capture(Duration.ofSeconds(2)), "cli");
        assertEquals("started", nextEvent());
        assertEquals(1, sampler.countersRead, "the window's start: the counters read");
        assertTrue(controller.heapBudget().keptBytes() > 0, "held under the heap budget for the capture's life");
        assertEquals(SessionState.RECORDING, controller.status().state());
        assertTrue(controller.status().intervals().adaptive(), "the window runs at the continuous target, not its 64 KiB");
        assertEquals("ended: time box ended", nextEvent());
        assertEquals(2, sampler.countersRead, "and its end");
        assertEquals(1, sampler.starts, "never restarted");
        assertEquals(0, sampler.stops, "never stopped");
        assertTrue(sampler.sampling, "continuous sampling goes on after the window");
        assertEquals(SessionState.STOPPED, controller.status().state());
        assertEquals(controller.status().startedAt(), controller.profile(LiveFilter.NONE, false).info().startedAt(),
                "the capture's own profile is its window");

        CaptureOptions deeper = new CaptureOptions(Duration.ofMinutes(1), 64 * 1024, 128, CaptureOptions.DEFAULT_MAX_STACKS, true,
                CaptureOptions.DEFAULT_LIVE_BUDGET);
        SessionConflictException depth = assertThrows(SessionConflictException.class, () -> controller.start(deeper, "cli"));
        assertTrue(depth.getMessage().contains("depth 64"), depth.getMessage());
        SessionConflictException reset = assertThrows(SessionConflictException.class, controller::reset);
        assertTrue(reset.getMessage().contains("never reset"), reset.getMessage());
        assertEquals(0, sampler.clears);

        controller.start(capture(Duration.ofMinutes(10)), "cli");
        assertEquals("started", nextEvent());
        controller.stopContinuous();
        assertEquals("ended: continuous sampling stopped", nextEvent(), "stopping continuous sampling ends its window");
        assertEquals(1, sampler.stops);
        assertEquals("", controller.status().continuous());
        SessionConflictException off = assertThrows(SessionConflictException.class,
                () -> controller.withContinuousProfile(LiveFilter.NONE, false, null, p -> p));
        assertTrue(off.getMessage().contains("--continuous"), off.getMessage());
        controller.reset();
        assertEquals(1, sampler.clears, "reset works again once continuous sampling is off");
        assertEquals(0, controller.heapBudget().keptBytes(), "the window's counters went with its capture");
    }

    private void awaitInterval(java.util.function.LongPredicate wanted, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
        while (!wanted.test(sampler.lastInterval)) {
            assertTrue(System.nanoTime() < deadline, what + ": the interval is still " + sampler.lastInterval);
            Thread.sleep(20);  // polls the governor's effect; its readings are 100 ms apart
        }
    }

    /**
     * The status's figures come from the capture while there is one, else from continuous sampling
     * while it runs (a status there once said "live: not tracked" beside thousands of weak references),
     * and they hold no share of the heap budget once read.
     */
    @Test
    void statusFiguresFollowTheCaptureElseContinuousSampling() {
        assertNull(controller.profileFigures(), "nothing samples");
        controller.startContinuous(null, "scraper");
        ProfileFigures continuous = controller.profileFigures();
        assertNotNull(continuous);
        assertEquals("continuous sampling", continuous.window());
        assertEquals(0, controller.heapBudget().inUseBytes(), "the figures keep no reservation");
        controller.start(capture(Duration.ofMinutes(1)), "cli");
        assertEquals("capture", controller.profileFigures().window());
        controller.stop();
        controller.stopContinuous();
        assertEquals("capture", controller.profileFigures().window(), "the last capture's, once continuous sampling stops");
    }
}
