package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.wire.SiteCounters;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delta's baseline ({@code ?seconds=N}) against a fake sampler: what it holds of heaptap's heap
 * budget while it waits and after, on every way it can end (answered, closed by the client going
 * away, continuous sampling stopped or restarted, a capture replaced, an error while it was made),
 * and the difference it makes, site by site id.
 */
class DeltaBaselineTest {
    /** 10,000 stacks of 30 frames and 15,000 sites: a baseline holds 40 bytes a site, a decoded profile about 10 MB. */
    private static final TableSizes SIZES = new TableSizes(500, 20_000, 8_000, 400_000, 80_000, 40_000, 10_000, 300_000, 15_000, 0);

    @TempDir
    Path tmp;
    private FakeSampler sampler;
    private Controller controller;
    private HeapBudget budget;

    @BeforeEach
    void newController() {
        sampler = new FakeSampler();
        sampler.tableSizes = SIZES;
        controller = new Controller(new DumpDirectory(tmp.resolve("dumps")), sampler, null);
        budget = controller.heapBudget();
    }

    @AfterEach
    void stop() {
        controller.stopContinuous();
        controller.reset();  // stops the live tracker's thread and its GC poll, which would go on allocating in later tests
    }

    @Test
    void aBaselineHoldsItsShareForItsWholeWaitAndTheEndReservesItsOwnOnTop() {
        sampler.sites = List.of(site("a", 10, 1_000), site("b", 5, 500));
        controller.startContinuous(null, "test");
        assertEquals(0, budget.inUseBytes());

        DeltaBaseline since = controller.deltaBaseline(true, ProfileFormat.PPROF);
        long held = SiteCounters.bytesFor(2);
        assertEquals(held, budget.inUseBytes(), "the baseline's counters (two sites), reserved for the whole wait, the reading"
                + " buffers given back");
        assertEquals(held, budget.keptBytes());
        assertTrue(held < 1024 * 1024, "40 bytes a site and the reading buffers: " + held);
        assertTrue(held * 10 < DumpCost.decode(SIZES), "a small fraction of a decoded profile: " + held);

        // Meanwhile: site a grew by 4 samples, b did not, c is new.
        sampler.sites = List.of(site("a", 14, 1_400), site("b", 5, 500), site("c", 3, 300));
        long[] inUse = new long[1];
        AllocationProfile delta = controller.withDeltaProfile(since, false, ProfileFormat.PPROF, p -> {
            inUse[0] = budget.inUseBytes();
            return p;
        });
        assertEquals(held + DumpCost.deltaAndEncode(SIZES, ProfileFormat.PPROF), inUse[0],
                "decoding, differencing and encoding the end reserve their own share beside the baseline's");
        assertEquals(held, budget.inUseBytes(), "the end's share is given back on return, the baseline's is still held");

        assertEquals(List.of("A.a 4 400.0", "C.c 3 300.0"),
                delta.sites().stream().map(s -> s.stack().get(0).className() + "." + s.type() + " " + s.samples() + " "
                        + s.estimatedBytes()).toList(), "by site id: a's growth, b unchanged (left out), c new and whole");

        since.close();
        assertEquals(0, budget.inUseBytes());
        since.close();
        assertEquals(0, budget.inUseBytes(), "closing twice gives back nothing twice");
    }

    @Test
    void stoppingContinuousSamplingDuringTheWaitGivesTheBudgetBackAtOnceAndRefusesTheDelta() {
        controller.startContinuous(null, "test");
        DeltaBaseline since = controller.deltaBaseline(true, ProfileFormat.PPROF);
        assertTrue(budget.inUseBytes() > 0);
        assertFalse(since.whenClosed().toCompletableFuture().isDone());
        controller.stopContinuous();
        assertEquals(0, budget.inUseBytes(), "heaptap stop --continuous: the waiting baseline's share is back now");
        assertFalse(since.isOpen());
        assertTrue(since.whenClosed().toCompletableFuture().isDone(), "its scrape is told, to answer at once");
        // Restarted before the window ends: still refused, as another run's counters.
        controller.startContinuous(null, "again");
        SessionConflictException refused = assertThrows(SessionConflictException.class,
                () -> controller.withDeltaProfile(since, false, ProfileFormat.PPROF, p -> p));
        assertTrue(refused.getMessage().contains("during the window"), refused.getMessage());
        assertEquals(0, budget.inUseBytes(), "the refused end gave its share back");
        since.close();
        assertEquals(0, budget.inUseBytes());
    }

    @Test
    void aBaselineOfAnotherGenerationIsRefusedAtTheEnd() {
        controller.start(capture(), "test");
        DeltaBaseline since = controller.deltaBaseline(false, ProfileFormat.PPROF);
        controller.stop();
        controller.start(capture(), "another");  // a new capture: new counters, site ids of other sites
        assertEquals(0, budget.inUseBytes(), "the replaced capture's baseline was closed");
        assertThrows(SessionConflictException.class, () -> controller.withDeltaProfile(since, false, ProfileFormat.TEXT, p -> p));
        assertEquals(0, budget.inUseBytes());
        controller.stop();
    }

    @Test
    void aFailedEndGivesItsShareBackAndTheBaselineKeepsItsOwnUntilClosed() {
        controller.startContinuous(null, "test");
        DeltaBaseline since = controller.deltaBaseline(true, ProfileFormat.PPROF);
        long held = budget.inUseBytes();
        assertThrows(IllegalStateException.class, () -> controller.withDeltaProfile(since, false, ProfileFormat.PPROF, p -> {
            throw new IllegalStateException("the encoder failed");
        }));
        assertEquals(held, budget.inUseBytes());
        since.close();
        assertEquals(0, budget.inUseBytes());
    }

    @Test
    void aBaselineThatCannotBeMadeHoldsNothing() {
        // No capture has run: refused after the reservation was taken, which is given back.
        assertThrows(SessionConflictException.class, () -> controller.deltaBaseline(false, ProfileFormat.PPROF));
        assertThrows(SessionConflictException.class, () -> controller.deltaBaseline(true, ProfileFormat.PPROF));
        assertEquals(0, budget.inUseBytes());

        // A table whose counters alone would exceed the budget: refused at once with the reason.
        controller.startContinuous(null, "test");
        sampler.tableSizes = new TableSizes(0, 0, 0, 0, 0, 0, 0, 0, budget.bytes() / 8, 0);
        HeapBudgetException tooBig = assertThrows(HeapBudgetException.class, () -> controller.deltaBaseline(true, ProfileFormat.PPROF));
        assertTrue(tooBig.getMessage().contains("a delta scrape's baseline"), tooBig.getMessage());
        assertEquals(0, budget.inUseBytes());
        assertEquals(0, sampler.countersRead, "nothing was read for it");
    }

    @Test
    void baselinesAreAdmittedOnlyWhileTheirEndsStillFitBesideThem() {
        controller.startContinuous(null, "test");
        sampler.sites = java.util.stream.IntStream.range(0, (int) SIZES.sites()).mapToObj(i -> site("s" + i, 1, 100)).toList();
        // Each is admitted if its estimate (reading buffers included) and the end's fit beside those kept; it keeps its exact size.
        long base = SiteCounters.bytesFor(SIZES.sites());
        long end = DumpCost.deltaAndEncode(SIZES, ProfileFormat.PPROF);
        long fit = (budget.bytes() - end - DumpCost.counters(SIZES)) / base + 1;
        assertTrue(fit >= 2, "the test's table leaves room for several: " + fit);
        List<DeltaBaseline> waiting = new java.util.ArrayList<>();
        for (int i = 0; i < fit; i++) {
            waiting.add(controller.deltaBaseline(true, ProfileFormat.PPROF));
        }
        HeapBudgetException refused = assertThrows(HeapBudgetException.class,
                () -> controller.deltaBaseline(true, ProfileFormat.PPROF));
        assertTrue(refused.getMessage().contains("waiting out their windows"), refused.getMessage());
        assertEquals(fit * base, budget.inUseBytes(), "the refused one holds nothing");
        // Every waiting scrape's end still fits beside all of them (one at a time).
        for (DeltaBaseline since : waiting) {
            controller.withDeltaProfile(since, false, ProfileFormat.PPROF, p -> p);
        }
        waiting.remove(0).close();
        waiting.add(controller.deltaBaseline(true, ProfileFormat.PPROF));  // one ended: room for another
        waiting.forEach(DeltaBaseline::close);
        assertEquals(0, budget.inUseBytes());
        assertEquals(0, budget.keptBytes());
    }

    @Test
    void aBaselineWaitingForTheBudgetThatOthersHoldIsRefusedWhenInterruptedAndHoldsNothing() throws Exception {
        controller.startContinuous(null, "test");
        long others = budget.bytes() - DumpCost.counters(SIZES) / 2;
        try (HeapBudget.Reservation taken = budget.reserve(others, "others", "", false)) {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread scrape = new Thread(() -> {
                try {
                    controller.deltaBaseline(true, ProfileFormat.PPROF).close();
                    outcome.complete(null);
                } catch (RuntimeException e) {
                    outcome.complete(e);
                }
            });
            scrape.start();
            scrape.interrupt();  // before or during its wait for the budget: refused either way
            Throwable refused = outcome.get(60, TimeUnit.SECONDS);
            assertTrue(refused instanceof HeapBudgetException, String.valueOf(refused));
            assertEquals(others, budget.inUseBytes(), "only the others' share is held");
        }
        assertEquals(0, budget.inUseBytes());
    }

    private static CaptureOptions capture() {
        return new CaptureOptions(Duration.ofMinutes(5), CaptureOptions.DEFAULT_INTERVAL, CaptureOptions.DEFAULT_DEPTH,
                CaptureOptions.DEFAULT_MAX_STACKS, false, CaptureOptions.DEFAULT_LIVE_BUDGET, 0);
    }

    private static AllocationSite site(String type, long samples, double bytes) {
        String cls = type.toUpperCase(java.util.Locale.ROOT);
        return new AllocationSite(List.of(new Frame(cls, "m", cls + ".java", 1)), false, type, samples, samples, bytes, samples,
                bytes, LiveStats.NONE);
    }
}
