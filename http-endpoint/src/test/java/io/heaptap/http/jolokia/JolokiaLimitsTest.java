package io.heaptap.http.jolokia;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JolokiaLimitsTest {
    @Test
    void aRequestReservesAtMostHalfOfTheSmallestBudgetAndAQuarterOfTheLargest() {
        JolokiaLimits smallest = JolokiaLimits.forBudget(2L << 20);  // a 16 MiB heap or less
        assertEquals(256 << 10, smallest.answerBytes());
        assertEquals(1L << 20, smallest.reservation(), "two requests at once fit the smallest budget");
        assertEquals(2048, smallest.maxObjects(), "the tree of one answer within its room");
        JolokiaLimits largest = JolokiaLimits.forBudget(64L << 20);
        assertEquals(4 << 20, largest.answerBytes());
        assertEquals(JolokiaLimits.MAX_OBJECTS, largest.maxObjects());
        assertTrue(largest.reservation() <= 16L << 20, "" + largest.reservation());
    }
}
