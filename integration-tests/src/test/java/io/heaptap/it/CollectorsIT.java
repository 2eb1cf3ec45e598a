package io.heaptap.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Stress;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Live tracking under every collector of both JDKs, and under 32 threads with constant thinning. */
class CollectorsIT {
    static final long MAX_HEAP = 256L << 20;

    static Stream<Arguments> collectors() {
        return Jdk.all().stream().flatMap(jdk -> Stream.of("UseSerialGC", "UseParallelGC", "UseG1GC", "UseZGC", "UseShenandoahGC")
                .map(gc -> Arguments.of(jdk, gc)));
    }

    @ParameterizedTest(name = "{0} -XX:+{1}")
    @MethodSource("collectors")
    void liveTrackingWorksAndResetLeavesNoWeakRefs(Jdk jdk, String gc) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Stress.class, List.of("-Xmx256m", "-XX:+" + gc), "4")) {
            String pid = Long.toString(target.pid());
            // Dumped while recording: the ring's objects live for well under a second, so only a
            // capture that is still sampling is sure to be tracking some of them.
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "5m", "--interval", "32k", "--live-budget", "2048")
                    .exitCode());
            Result r = HeaptapCli.run("dump", pid, "--format", "json", "--gc");
            assertEquals(0, r.exitCode(), r::toString);
            JsonNode profile = Profiles.json(r.stdout());
            assertSane(profile);
            assertTrue(profile.get("live").get("tracked").asLong() > 0, "something is tracked under " + gc);
            assertTrue(profile.get("live").get("gcCount").asLong() > 0, "the GC clock runs under " + gc);
            assertEquals(0, HeaptapCli.run("reset", pid).exitCode());
            assertTrue(HeaptapCli.run("status", pid).out().contains("weak refs:    0"), "reset deletes every weak reference");
            assertTrue(target.isAlive());
        }
    }

    @Test
    void dumpsDuringConstantThinningCleaningAndGcsWith32Threads() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Stress.class, List.of("-Xmx256m"), "32")) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "5m", "--interval", "16k", "--live-budget", "256").exitCode());
            long thinnings = 0;
            for (int i = 0; i < 6; i++) {
                Result r = i % 2 == 0 ? HeaptapCli.run("dump", pid, "--format", "json")
                        : HeaptapCli.run("dump", pid, "--format", "json", "--gc");
                assertEquals(0, r.exitCode(), r::toString);
                JsonNode profile = Profiles.json(r.stdout());
                assertSane(profile);
                thinnings = profile.get("live").get("thinnings").asLong();
            }
            assertTrue(thinnings > 10, "the table was thinned all along: " + thinnings);
            assertEquals(0, HeaptapCli.run("reset", pid).exitCode());
            assertTrue(HeaptapCli.run("status", pid).out().contains("weak refs:    0"));
            assertTrue(target.isAlive());
        }
    }

    /** No negative, non-finite or impossible figure anywhere. */
    static void assertSane(JsonNode profile) {
        JsonNode live = profile.get("live");
        double keep = live.get("keepProbability").asDouble();
        assertTrue(keep > 0 && keep <= 1, "keep-probability " + keep);
        assertTrue(live.get("tracked").asLong() <= live.get("budget").asLong(), "tracked within budget");
        assertTrue(live.get("estimatedBytes").isNumber() && live.get("estimatedBytes").asDouble() >= 0);
        assertTrue(live.get("estimatedBytes").asDouble() < 4 * MAX_HEAP, "live estimate far above the heap: " + live);
        for (JsonNode site : profile.get("sites")) {
            assertTrue(site.get("estimatedBytes").isNumber() && site.get("estimatedBytes").asDouble() >= 0, site::toString);
            assertTrue(site.get("samples").asLong() >= 0);
            JsonNode l = site.get("live");
            if (!l.isNull()) {
                assertTrue(l.get("estimatedBytes").asDouble() >= 0 && l.get("estimatedObjects").asDouble() >= 0, l::toString);
                assertTrue(l.get("minAgeMillis").asLong() >= 0 && l.get("minAgeMillis").asLong() <= l.get("maxAgeMillis").asLong());
                assertTrue(l.get("minGcs").asLong() >= 0 && l.get("minGcs").asLong() <= l.get("maxGcs").asLong());
            }
        }
    }
}
