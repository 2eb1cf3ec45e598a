package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.nativeagent.LiveProof;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.SamplerSettings;

import java.time.Duration;
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
    private final RawDumps dumps = new RawDumps(timer, IDLE_NANOS);

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
}
