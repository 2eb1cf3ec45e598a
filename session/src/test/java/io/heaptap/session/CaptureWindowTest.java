package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveStats;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture during continuous sampling against a fake sampler whose counters only grow, as the
 * agent's do: its profile counts from its start, stops at its end whatever continuous sampling
 * counts after it, and its counters hold heaptap's heap budget only while it is the capture.
 */
class CaptureWindowTest {
    private static final TableSizes SIZES = new TableSizes(500, 20_000, 8_000, 400_000, 80_000, 40_000, 10_000, 300_000, 15_000, 0);

    @TempDir
    Path tmp;
    private FakeSampler sampler;
    private Controller controller;

    @BeforeEach
    void newController() {
        sampler = new FakeSampler();
        sampler.tableSizes = SIZES;
        controller = new Controller(new DumpDirectory(tmp.resolve("dumps")), sampler, null);
    }

    @AfterEach
    void stop() {
        controller.stopContinuous();
        controller.reset();
    }

    @Test
    void aWindowCountsBetweenItsStartAndItsEndOnly() {
        sampler.sites = List.of(site("a", 10));
        controller.startContinuous(null, "test");
        controller.start(capture(), "cli");
        long held = controller.heapBudget().keptBytes();
        assertTrue(held > 0, "the window's counters are held under the heap budget");

        sampler.sites = List.of(site("a", 14), site("b", 3));
        assertEquals(List.of(4L, 3L), samples(controller.profile(LiveFilter.NONE, false)), "growth since the start, b whole");

        controller.stop();
        sampler.sites = List.of(site("a", 20), site("b", 5), site("c", 2));
        assertEquals(List.of(4L, 3L), samples(controller.profile(LiveFilter.NONE, false)),
                "frozen at its end: nothing counted after it, and c, made after it, is not in it");
        assertEquals(List.of(20L, 5L, 2L), samples(controller.withContinuousProfile(LiveFilter.NONE, false, null, p -> p)),
                "continuous sampling counts on, untouched by the window");
        assertTrue(controller.heapBudget().keptBytes() <= held, "the ended window keeps only its counters");

        controller.stopContinuous();
        assertEquals(List.of(4L, 3L), samples(controller.profile(LiveFilter.NONE, false)),
                "still the last capture once continuous sampling stops");
        controller.reset();
        assertEquals(0, controller.heapBudget().keptBytes(), "gone with the capture");
    }

    @Test
    void aWindowThatDoesNotFitTheHeapBudgetIsRefusedAndHoldsNothing() {
        controller.startContinuous(null, "test");
        HeapBudget budget = controller.heapBudget();
        try (HeapBudget.Reservation others = budget.reserveKept(budget.bytes() - 1024, 0, "delta scrapes", "")) {
            HeapBudgetException refused = assertThrows(HeapBudgetException.class, () -> controller.start(capture(), "cli"));
            assertTrue(refused.getMessage().startsWith("a capture during continuous sampling keeps the counters"),
                    refused.getMessage());
            assertEquals(budget.bytes() - 1024, budget.keptBytes(), "the refused window holds nothing");
            assertEquals(SessionState.IDLE, controller.status().state());
            assertEquals(0, sampler.countersRead, "nothing was read for it");
        }
        controller.start(capture(), "cli");
        assertEquals(SessionState.RECORDING, controller.status().state(), "admitted once the budget has room");
    }

    /** A second start while a window runs hears "already running" at once, even with no budget left for its counters. */
    @Test
    void aSecondStartIsRefusedAsAlreadyRunningBeforeTheBudgetIsAsked() {
        controller.startContinuous(null, "test");
        controller.start(capture(), "first");
        HeapBudget budget = controller.heapBudget();
        try (HeapBudget.Reservation others = budget.reserveKept(budget.bytes() - budget.keptBytes() - 1024, 0, "delta scrapes", "")) {
            SessionConflictException refused = assertThrows(SessionConflictException.class, () -> controller.start(capture(), "second"));
            assertTrue(refused.getMessage().startsWith("a capture is already running: started by first"), refused.getMessage());
        }
        assertEquals("first", controller.status().startedBy());
    }

    private static CaptureOptions capture() {
        return new CaptureOptions(Duration.ofMinutes(10), 64 * 1024, CaptureOptions.DEFAULT_DEPTH, CaptureOptions.DEFAULT_MAX_STACKS,
                true, CaptureOptions.DEFAULT_LIVE_BUDGET);
    }

    private static List<Long> samples(AllocationProfile p) {
        return p.sites().stream().map(AllocationSite::samples).toList();
    }

    private static AllocationSite site(String type, long samples) {
        String cls = type.toUpperCase(java.util.Locale.ROOT);
        return new AllocationSite(List.of(new Frame(cls, "m", cls + ".java", 1)), false, type, samples, samples, samples * 100.0,
                samples, samples * 100.0, LiveStats.NONE);
    }
}
