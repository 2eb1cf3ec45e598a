package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The heap after a forced collection accounted for: sites first, the census's classes for the rest, each byte once. */
class HeapAccountTest {
    static final long MB = 1L << 20;

    @Test
    void sitesExplainTheirClassesAndTheCensusNamesTheRest() {
        ClassCensus census = new ClassCensus(60_000, 1_000 * MB, 4_096 * MB, 300,
                List.of(new ClassCount("byte[]", 10, 900 * MB), new ClassCount("Order", 5, 60 * MB), new ClassCount("String", 3, 20 * MB)),
                new ClassCount("40 other classes", 7, 10 * MB), 40, 25, 990 * MB);
        // The leak's site explains 30 MiB of Order; a cache site 38 MiB of byte[]; a site of a rest class 1 MiB; one
        // estimate above its class's census is capped at the exact census.
        HeapAccount a = HeapAccount.of(census, Map.of("Order", 30.0 * MB, "byte[]", 38.0 * MB, "Rare", 1.0 * MB, "String", 25.0 * MB));
        assertEquals((38 + 30 + 20 + 1) * MB, a.sampledBytes(), 1);
        assertEquals("byte[]", a.classes().get(0).name());
        assertEquals(862.0 * MB, a.classes().get(0).unexplainedBytes(), 1);
        assertEquals(30.0 * MB, a.classes().get(1).unexplainedBytes(), 1);
        assertEquals(0, a.classes().get(2).unexplainedBytes(), 1);
        assertEquals(9.0 * MB, a.restUnexplainedBytes(), 1);
        assertEquals(990.0 * MB, a.accountedBytes(), 1, "each byte of the census counted once");
        assertEquals(0.99, a.accountedShare(), 1e-9);
        assertEquals((990 - 89) * MB, a.unexplainedBytes(), 1);
    }

    @Test
    void noHeapFigureGivesNoShare() {
        ClassCensus census = new ClassCensus(0, 0, 0, 0, List.of(), new ClassCount("0 other classes", 0, 0), 0, 0, 0);
        assertEquals(0, HeapAccount.of(census, Map.of()).accountedShare());
    }
}
