package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The census section reads the application's pause from the target's own safepoint log, on JDK 17's format and 25's. */
class CensusBenchTest {
    @Test
    void everySafepointWhileTheCommandRanIsSummedAndNamed() {
        String lines = """
                [1.415s][info][safepoint] Safepoint "G1CollectFull", Time since last: 357150016 ns, Reaching safepoint: 9200 ns, \
                Cleanup: 7579 ns, At safepoint: 79721055 ns, Total: 80000000 ns
                [2.514s][info][safepoint] Safepoint "GC_HeapInspection", Time since last: 1003111844 ns, Reaching safepoint: 7520 ns, \
                At safepoint: 126124403 ns, Leaving safepoint: 16182 ns, Total: 120000000 ns, Threads: 0 runnable, 11 total
                [2.600s][info][safepoint] Safepoint "Cleanup", Time since last: 1 ns, Reaching safepoint: 7520 ns, \
                At safepoint: 1 ns, Total: 500000 ns
                [2.700s][info][safepoint] Safepoint "Cleanup", Time since last: 1 ns, Reaching safepoint: 7520 ns, \
                At safepoint: 1 ns, Total: 500000 ns
                """;
        CensusBench.Pause p = CensusBench.parse(lines, 900);
        assertEquals(201, p.totalMillis(), 1e-9);
        assertEquals(120, p.longestMillis(), 1e-9);
        assertEquals(4, p.safepoints());
        assertEquals("G1CollectFull, GC_HeapInspection, Cleanup ×2", p.operations());
        assertEquals(900, p.wallMillis());
    }

    @Test
    void noSafepointIsNoPause() {
        CensusBench.Pause p = CensusBench.parse("[0.1s][info][gc] Using G1\n", 5);
        assertEquals(0, p.totalMillis());
        assertEquals(0, p.safepoints());
    }
}
