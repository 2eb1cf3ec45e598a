package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The cost line: what it counts, and what it says it does not. */
class SamplingCostTest {
    @Test
    void onJdk17TheJvmsEventsAreCountedAndSaidSo() {
        SamplingCost cost = new SamplingCost(30_000, 90_000_000L, 20_000_000_000L, 0.01, 220_000, 110_000_000L);
        assertEquals(0.01, cost.share(), 1e-9, "the callback's 90 ms and the events' 110 ms of 20 s");
        assertEquals("sample callback 90ms + the JVM's 220,000 sampling events 110ms = 1.00% of 20.0s process CPU"
                + " (3.0 \u00b5s a sample; bound 1.0%; not counted: heaptap's threads)", cost.describe());
    }

    @Test
    void withoutPricedEventsTheLineSaysTheJvmsPartIsNotCounted() {
        SamplingCost cost = new SamplingCost(30_000, 90_000_000L, 20_000_000_000L, 0.01);
        assertEquals("sample callback 90ms = 0.45% of 20.0s process CPU (3.0 \u00b5s a sample; bound 1.0%;"
                + " not counted: heaptap's threads, the JVM's part of each sample)", cost.describe());
    }

    @Test
    void aFigureAboveItsBoundSaysSo() {
        SamplingCost cost = new SamplingCost(40_000, 296_000_000L, 20_000_000_000L, 0.01);
        assertEquals("sample callback 296ms = 1.48% of 20.0s process CPU (7.4 \u00b5s a sample; bound 1.0%, over it;"
                + " not counted: heaptap's threads, the JVM's part of each sample)", cost.describe());
        assertEquals("sample callback 296ms = 1.48% of 20.0s process CPU (7.4 \u00b5s a sample;"
                + " not counted: heaptap's threads, the JVM's part of each sample)",
                new SamplingCost(40_000, 296_000_000L, 20_000_000_000L, 0).describe(), "no bound (--rate, --interval): nothing to exceed");
    }

    @Test
    void aWindowSubtractsTheEventsToo() {
        SamplingCost earlier = new SamplingCost(10, 1_000, 1_000_000, 0.01, 100, 50_000);
        SamplingCost later = new SamplingCost(30, 3_000, 3_000_000, 0.01, 400, 200_000);
        assertEquals(new SamplingCost(20, 2_000, 2_000_000, 0.01, 300, 150_000), later.since(earlier));
    }
}
