package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The throughput goal is judged by the mean's 95% interval, not by a median alone. */
class GoalsTest {
    private static final BenchTarget.Jdk JDK = new BenchTarget.Jdk("JDK 25.0.3", Path.of("/nonexistent"), 25);
    private static final String TOOL = "heaptap default live";

    private static String defaultsRow(double median, double mean, double halfWidth) {
        Map<String, Double> measured = Map.of(Goals.overhead(JDK, TOOL), median, Goals.overheadMean(JDK, TOOL), mean,
                Goals.overheadHalfWidth(JDK, TOOL), halfWidth);
        List<String> table = Goals.table(List.of(JDK), measured);
        return table.stream().filter(l -> l.startsWith("| throughput with heaptap at its defaults")).findFirst().orElseThrow();
    }

    @Test
    void anIntervalAboveTheFloorPasses() {
        assertTrue(defaultsRow(0.995, 0.996, 0.004).endsWith("| pass |"));
    }

    @Test
    void anIntervalBelowTheFloorFails() {
        assertTrue(defaultsRow(0.97, 0.971, 0.01).endsWith("| **FAIL** |"));
    }

    @Test
    void anIntervalAcrossTheFloorIsNotResolvedWhateverTheMedian() {
        String row = defaultsRow(0.993, 0.986, 0.02);
        assertTrue(row.endsWith("| not resolved |"), row);
        assertTrue(row.contains("median 0.993; mean 0.986 (95%: 0.966–1.006)"), row);
    }
}
