package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.DeepStacks;

import java.util.Locale;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The default sampling bounds what its samples cost, on a real JVM whose samples are expensive: one
 * thread allocating flat out 80 frames deep, so each kept sample walks the 64-frame default depth. At
 * 5,000 samples a second that walk alone would take 6-12% of the process's CPU (25 us a sample, JDK 25,
 * perf: 4.5% of a two-thread target's CPU); the default sampling lowers the rate until the callback's
 * time is about 1% of the process's CPU, never below 1,000 a second. A rate asked for is kept whatever
 * it costs. Both profiles say what their sampling cost.
 */
class SampleCostIT {
    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theDefaultSamplingLowersTheRateWhereSamplesAreExpensiveAndAnAskedRateIsKept(Jdk jdk) throws Exception {
        JsonNode byDefault;
        JsonNode asked;
        try (TargetJvm target = TargetJvm.start(jdk, DeepStacks.class)) {
            String pid = Long.toString(target.pid());
            byDefault = capture(pid);
            asked = capture(pid, "--rate", "5000");
        }
        JsonNode defaultCost = byDefault.get("capture").get("samplingCost");
        JsonNode askedCost = asked.get("capture").get("samplingCost");
        double defaultRate = byDefault.get("capture").get("samplesPerSecond").asDouble();
        double askedRate = asked.get("capture").get("samplesPerSecond").asDouble();
        System.out.printf(Locale.ROOT, "SampleCostIT (%s): default %.0f samples/s, callback %.2f%% of the process's CPU (%.1f us a sample);"
                        + " --rate 5000: %.0f/s, %.2f%% (%.1f us)%n", jdk, defaultRate, share(defaultCost), perSample(defaultCost) / 1000,
                askedRate, share(askedCost), perSample(askedCost) / 1000);

        assertEquals(0.01, defaultCost.get("budgetShare").asDouble(), "the default sampling is kept under 1% of the CPU");
        assertEquals(0, askedCost.get("budgetShare").asDouble(), "an asked-for rate has no budget");
        for (JsonNode cost : new JsonNode[] {defaultCost, askedCost}) {
            assertTrue(cost.get("callbackNanos").asLong() > 0 && cost.get("processCpuNanos").asLong() > 0, cost.toString());
            assertTrue(cost.get("samples").asLong() > 0, cost.toString());
        }
        assertTrue(askedRate > 4_000, "5,000 samples/s asked for and kept: " + askedRate);
        assertTrue(defaultRate < 0.7 * askedRate, "the default sampling took " + defaultRate + " samples/s of samples costing "
                + perSample(defaultCost) + " ns each; the asked rate " + askedRate);
        assertTrue(defaultRate > 600, "never far below the budget's minimum of 1,000/s: " + defaultRate);
        assertTrue(share(defaultCost) < share(askedCost), "the bound costs less: " + share(defaultCost) + " vs " + share(askedCost));
    }

    /** A 10 s capture at these settings, as JSON: the bound prices samples after a second at a steady rate. */
    private static JsonNode capture(String pid, String... settings) throws Exception {
        String[] args = Stream.concat(Stream.of("capture", pid, "--duration", "10s", "--format", "json"), Stream.of(settings))
                .toArray(String[]::new);
        Result r = HeaptapCli.run(args);
        assertEquals(0, r.exitCode(), r::toString);
        return Profiles.json(r.stdout());
    }

    private static double share(JsonNode cost) {
        return 100.0 * cost.get("callbackNanos").asLong() / cost.get("processCpuNanos").asLong();
    }

    private static double perSample(JsonNode cost) {
        return cost.get("callbackNanos").asDouble() / cost.get("samples").asLong();
    }
}
