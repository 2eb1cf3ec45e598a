package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class HeapBudgetTest {
    static final long MIB = 1L << 20;

    @Test
    void aSixteenthOfTheHeapBetweenTwoAnd64MiB() {
        assertEquals(6 * MIB, HeapBudget.bytesFor(96 * MIB));
        assertEquals(16 * MIB, HeapBudget.bytesFor(256 * MIB));
        assertEquals(2 * MIB, HeapBudget.bytesFor(16 * MIB));
        assertEquals(64 * MIB, HeapBudget.bytesFor(8L << 30));
        assertEquals(64 * MIB, HeapBudget.bytesFor(Long.MAX_VALUE), "no -Xmx limit");
    }

    @Test
    void aRequestBiggerThanTheBudgetIsRefusedAndSaysWhatToDoInstead() {
        HeapBudget budget = new HeapBudget(6 * MIB);
        HeapBudgetException e = assertThrows(HeapBudgetException.class,
                () -> budget.reserve(40 * MIB, "a json dump", "use the CLI", true));
        assertTrue(e.getMessage().startsWith("a json dump needs about 40.0 MiB"), e.getMessage());
        assertTrue(e.getMessage().contains("budget of 6.0 MiB") && e.getMessage().endsWith("use the CLI"), e.getMessage());
    }

    @Test
    void requestsThatFitOnlyOneAtATimeTakeTurns() throws Exception {
        HeapBudget budget = new HeapBudget(6 * MIB);
        HeapBudget.Reservation first = budget.reserve(4 * MIB, "one", "", true);
        assertThrows(HeapBudgetException.class, () -> budget.reserve(4 * MIB, "two", "", false), "no wait: refused at once");
        CompletableFuture<HeapBudget.Reservation> second = CompletableFuture.supplyAsync(() -> budget.reserve(4 * MIB, "two", "", true));
        first.close();
        second.get(30, TimeUnit.SECONDS).close();
        assertEquals(4 * MIB, budget.peakBytes(), "never more than one at once");
        budget.reserve(6 * MIB, "all of it", "", false).close();
    }

    @Test
    void keptReservationsLeaveRoomForWhatTheyWaitFor() {
        HeapBudget budget = new HeapBudget(6 * MIB);
        HeapBudget.Reservation a = budget.reserveKept(MIB, 3 * MIB, "a delta scrape's baseline", "");
        HeapBudget.Reservation b = budget.reserveKept(MIB, 3 * MIB, "a delta scrape's baseline", "");
        assertEquals(2 * MIB, budget.keptBytes());
        // A third would leave less than the 3 MiB an end needs: refused at once, not after a wait.
        long began = System.nanoTime();
        HeapBudgetException refused = assertThrows(HeapBudgetException.class,
                () -> budget.reserveKept(2 * MIB, 3 * MIB, "a delta scrape's baseline", ""));
        assertTrue(System.nanoTime() - began < TimeUnit.SECONDS.toNanos(5), "refused without waiting");
        assertTrue(refused.getMessage().contains("2.0 MiB of heaptap's heap budget in this JVM (6.0 MiB) is kept by delta scrapes"),
                refused.getMessage());
        // The end they wait for always fits beside them.
        budget.reserve(3 * MIB, "an end", "", false).close();
        a.close();
        a.close();
        assertEquals(MIB, budget.keptBytes(), "closing twice gives back once");
        budget.reserveKept(2 * MIB, 3 * MIB, "a delta scrape's baseline", "").close();
        b.close();
        assertEquals(0, budget.keptBytes());
        assertEquals(0, budget.inUseBytes());
    }
}
