package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ServiceResultsTest {
    private static ServiceResults.Window window(double cpuMicros, double p99, double saturation) {
        return new ServiceResults.Window(new LoadClient.FixedRate(100, 1000, 1000, 0, p99 / 4, p99, p99 * 2, cpuMicros),
                new LoadClient.Saturation(4, 500, 0, saturation, cpuMicros));
    }

    @Test
    void anOnWindowIsJudgedAgainstTheMeanOfItsNeighbours() {
        ServiceResults results = new ServiceResults();
        // the off-windows drift from 100 to 120 µs: the on-window's 121 µs is 10% over their mean, not 21% over the first
        results.onWindow("JDK 17", "t", window(100, 4, 1000), window(121, 5.5, 990), window(120, 7, 1200));
        assertEquals(1.10, results.meanRatio("JDK 17", "t", "CPU per request"), 1e-9);
        assertEquals(1.0, results.meanRatio("JDK 17", "t", "p99"), 1e-9);
        assertEquals(0.9, results.meanRatio("JDK 17", "t", "throughput at saturation"), 1e-9);
    }

    @Test
    void theTableShowsCpuFirstAndCountsFailures() {
        ServiceResults results = new ServiceResults();
        results.warmedUp("JDK 25", "heaptap defaults", 30, true, 400);
        ServiceResults.Window off = window(100, 4, 1000);
        results.offWindow("JDK 25", "heaptap defaults", off);
        results.onWindow("JDK 25", "heaptap defaults", off, window(102, 4, 1000), off);
        results.onWindow("JDK 25", "heaptap defaults", off, window(104, 4, 1000), off);
        ServiceResults.Window failing = new ServiceResults.Window(new LoadClient.FixedRate(100, 1000, 997, 3, 1, 4, 8, 100),
                new LoadClient.Saturation(4, 500, 0, 1000, 100));
        results.offWindow("JDK 25", "heaptap defaults", failing);
        List<String> table = results.tables();
        assertTrue(table.get(0).startsWith("| JDK | tool | CPU per request |"), table.get(0));
        // mean 1.03 of 1.02 and 1.04; t(1) = 12.706 times the standard error 0.01
        assertTrue(table.contains("| JDK 25 | heaptap defaults | 1.030 (0.903–1.157) | 1.000 (1.000–1.000) | 1.000 (1.000–1.000)"
                + " | 1.000 (1.000–1.000) | 1.000 (1.000–1.000) | 2 |"), String.join("\n", table));
        assertTrue(table.stream().anyMatch(l -> l.startsWith("| JDK 25 | heaptap defaults | 30 s, 400/s |") && l.endsWith("| 3 |")),
                String.join("\n", table));
        assertEquals(3, results.errors());
    }

    @Test
    void goalsAreMetOrMissedOnlyWhenTheIntervalSaysSo() {
        ServiceResults results = new ServiceResults();
        ServiceResults.Window off = window(100, 4, 1000);
        for (double[] onWindow : new double[][] {{100.0, 4.8}, {100.2, 5.2}, {100.4, 5.0}}) {
            results.onWindow("JDK 17", "heaptap defaults", off, window(onWindow[0], onWindow[1], 1000), off);
        }
        results.onWindow("JDK 17", "async-profiler alloc", off, window(110, 4, 1000), off);
        results.onWindow("JDK 17", "async-profiler alloc", off, window(112, 4, 1000), off);
        results.onWindow("JDK 17", "async-profiler alloc", off, window(114, 4, 1000), off);
        results.onWindow("JDK 17", "JFR profile", off, window(90, 4, 1000), off);
        results.onWindow("JDK 17", "JFR profile", off, window(120, 4, 1000), off);
        List<String> goals = results.goals("JDK 17");
        // CPU 1.000, 1.002, 1.004: mean 1.002, half-width 4.303 x 0.00115 = 0.005, wholly under 1.01;
        // p99 1.20, 1.30, 1.25: wholly over 1.05
        assertEquals("- JDK 17, heaptap defaults: CPU per request ≤ 1.01: met (1.002 (0.997–1.007)); p99 ≤ 1.05: missed (1.250 (1.126–1.374))",
                goals.get(0));
        assertEquals("- JDK 17, heaptap defaults cheaper than async-profiler alloc by CPU per request: yes (1.002 against 1.120)", goals.get(1));
        // JFR's two windows (0.90, 1.20) give an interval too wide to order the two
        assertEquals("- JDK 17, heaptap defaults cheaper than JFR profile by CPU per request: not resolved (1.002 against 1.050)", goals.get(2));
        assertEquals(List.of(), results.goals("JDK 25"));
    }

    @Test
    void warmUpIsSteadyWhenTheLastThreeStepsAgreeWithinFivePercent() {
        assertTrue(ServiceBench.steadyTail(List.of(300.0, 900.0, 1000.0, 1040.0, 1020.0)));
        assertFalse(ServiceBench.steadyTail(List.of(900.0, 1000.0, 1060.0)));
    }

    @Test
    void percentilesAreNearestRank() {
        long[] nanos = new long[1000];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (i + 1) * 1_000_000L;
        }
        assertEquals(500, LoadClient.percentileMillis(nanos, 0.50));
        assertEquals(990, LoadClient.percentileMillis(nanos, 0.99));
        assertEquals(999, LoadClient.percentileMillis(nanos, 0.999));
        assertTrue(Double.isNaN(LoadClient.percentileMillis(new long[0], 0.99)));
    }
}
