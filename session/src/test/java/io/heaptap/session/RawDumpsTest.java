package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.profile.LiveFilter;
import io.heaptap.wire.LiveProof;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Raw dumps of clients that went away are closed, and only theirs: with an idle time of a second in
 * place of the minute (long enough that the reading thread is never idle that long on a loaded
 * machine), against real native snapshots and a real scheduler.
 */
class RawDumpsTest {
    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final RawDumps dumps = new RawDumps(timer, IDLE_NANOS, IDLE_NANOS);

    @BeforeEach
    void capture() throws Exception {
        NativeAgent agent = NativeAgent.get();
        agent.start(SamplerSettings.withoutLargeStratum(16 * 1024, Duration.ofMinutes(1), 64, 1024, 0));
        agent.stop();
    }

    @AfterEach
    void close() throws Exception {
        timer.shutdownNow();
        dumps.closeAll();
        NativeAgent.get().clear();
    }

    private String open() throws Exception {
        return dumps.open(new byte[] {1, 2, 3}, NativeAgent.get().openSnapshot(LiveProof.NONE));
    }

    /** Waits for a state the reaper brings about; its delays are real time, so no fixed wait would do. */
    private static void await(BooleanSupplier state, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!state.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "never " + what);
            Thread.onSpinWait();
        }
    }

    @Test
    void anIdleDumpIsClosedAndOneBeingReadIsKept() throws Exception {
        String idle = open();
        String read = open();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (dumps.isOpen(idle)) {
            assertEquals(1, dumps.read(read, 0, 1).length);
            assertTrue(System.nanoTime() < deadline, "the idle dump was never closed");
        }
        assertTrue(dumps.isOpen(read), "a dump read within the idle time stays open");
        await(() -> !dumps.isOpen(read), "closed once nobody read it");
    }

    /**
     * The reaper stops once nothing is open, and the next dump starts it again: one opened just after
     * the last one was reaped must not be left without it (held in native memory until the next dump).
     */
    @Test
    void theReaperStopsWhenNothingIsOpenAndTheNextDumpRestartsIt() throws Exception {
        String first = open();
        await(() -> !dumps.isOpen(first), "the first dump closed");
        await(() -> timer.getQueue().isEmpty() && timer.getActiveCount() == 0, "the reaper stopped");
        String next = open();
        assertEquals(1, timer.getQueue().size(), "the next dump scheduled the reaper");
        String another = open();
        assertEquals(1, timer.getQueue().size(), "one reaper for any number of dumps");
        await(() -> !dumps.isOpen(next) && !dumps.isOpen(another), "the next dumps closed");
        assertFalse(dumps.isOpen(first));
    }

    /**
     * Clients hold at most all but one of the agent's snapshot slots: the next is refused as busy
     * (before its snapshot is made, and a snapshot handed in anyway is closed), and the target's own
     * decoding still finds its slot.
     */
    @Test
    void clientsLeaveOneSlotForTheTargetAndTheNextDumpIsBusy() throws Exception {
        RawDumps held = new RawDumps(timer, TimeUnit.MINUTES.toNanos(1), TimeUnit.MINUTES.toNanos(1));
        try {
            for (int i = 0; i < RawDumps.MAX_OPEN; i++) {
                held.open(new byte[] {1}, NativeAgent.get().openSnapshot(LiveProof.NONE));
            }
            SessionConflictException busy = assertThrows(SessionConflictException.class, held::admit);
            assertTrue(busy.getMessage().startsWith("busy: " + RawDumps.MAX_OPEN + " raw dumps are being read"), busy.getMessage());
            RawSnapshot extra = NativeAgent.get().openSnapshot(LiveProof.NONE);
            assertThrows(SessionConflictException.class, () -> held.open(new byte[] {1}, extra));
            assertNotNull(NativeAgent.get().snapshot(LiveFilter.NONE, LiveProof.NONE),
                    "the refused snapshot was closed, and the target's own decoding has its slot");
            assertEquals(RawDumps.MAX_OPEN, held.openCount());
        } finally {
            held.closeAll();
        }
    }

    /** When all are taken, a dump nobody has read for the abandoned time makes room; ones being read stay. */
    @Test
    void anAbandonedDumpMakesRoomWhenAllAreTaken() throws Exception {
        RawDumps held = new RawDumps(timer, TimeUnit.MINUTES.toNanos(1), IDLE_NANOS);
        try {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < RawDumps.MAX_OPEN; i++) {
                ids.add(held.open(new byte[] {1}, NativeAgent.get().openSnapshot(LiveProof.NONE)));
            }
            String abandoned = ids.get(0);
            long opened = System.nanoTime();
            while (System.nanoTime() - opened <= IDLE_NANOS) {  // the others are read meanwhile, the first is not
                for (String id : ids.subList(1, ids.size())) {
                    assertEquals(1, held.read(id, 0, 1).length);
                }
            }
            held.admit();
            assertFalse(held.isOpen(abandoned), "the abandoned dump made room");
            ids.subList(1, ids.size()).forEach(id -> assertTrue(held.isOpen(id), "a dump being read stays"));
        } finally {
            held.closeAll();
        }
    }
}
