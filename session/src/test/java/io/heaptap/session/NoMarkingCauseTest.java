package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** A watch without --gc that saw no marking says why, and names the command that would decide with its pause. */
class NoMarkingCauseTest {
    static final long GIB = 1L << 30;

    @Test
    void g1NamesItsThresholdTheOccupancyAndTheDecidingCommandWithItsPause() {
        NoMarkingCause.Facts g1 = new NoMarkingCause.Facts(List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation"),
                GIB, -1, 4 * GIB, GIB + GIB / 2, 45, true);
        String said = NoMarkingCause.explain(g1, 1_075, 4242, 120_000, 10_000);
        assertTrue(said.startsWith("G1 completed no concurrent marking in the watch (1075 collections"), said);
        assertTrue(said.contains("its old generation holds 1.0 GiB, 25% of the heap's maximum 4.0 GiB"), said);
        assertTrue(said.contains("InitiatingHeapOccupancyPercent=45, adapted by G1"), said);
        assertTrue(said.contains("To decide: heaptap leaks 4242 --gc --duration 2m --every 10s"), said);
        assertTrue(said.contains("pauses the application about 1.2s (a full collection and a class census of the 1.5 GiB in use"), said);
    }

    @Test
    void parallelSaysItsOldGenerationIsNotFull() {
        NoMarkingCause.Facts ps = new NoMarkingCause.Facts(List.of("PS Scavenge", "PS MarkSweep"), GIB / 4, 2 * GIB, 4 * GIB, GIB / 2, -1,
                false);
        String said = NoMarkingCause.explain(ps, 12, 7, 10_000, 2_000);
        assertTrue(said.contains("no full collection in the watch (12 collections, all young)"), said);
        assertTrue(said.contains("it holds 256.0 MiB of 2.0 GiB (13%)"), said);
        assertTrue(said.contains("heaptap leaks 7 --gc --duration 10s --every 2s"), said);
        assertTrue(said.contains("about 400ms"), said);
    }
}
