package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.CensusLeak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Serial compacts the whole heap at every fourth full collection only (HotSpot's {@code MarkSweepAlwaysCompactCount}) and
 * leaves dead space at the others, so a leak watch's time to OOM follows its fully compacted readings alone: the JVM's
 * own count of full collections marks them, every fourth forced one, and the projection uses those and no others.
 */
class SerialCompactionIT {
    @Test
    void theTimeToOomFollowsSerialsFullyCompactedReadings() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), CensusLeak.class, List.of("-Xmx1g", "-XX:+UseSerialGC"))) {
            target.send("leak");
            target.awaitLine("leaking", Duration.ofSeconds(30));
            Result r = HeaptapCli.run("leaks", Long.toString(target.pid()), "--duration", "24s", "--every", "1s", "--gc",
                    "--format", "json");
            assertEquals(0, r.exitCode(), r::toString);
            JsonNode heap = Profiles.json(r.stdout()).get("heap");
            String said = "heap " + heap;
            List<Integer> compacted = new ArrayList<>();
            JsonNode readings = heap.get("heapAfterGc");
            for (int i = 0; i < readings.size(); i++) {
                if (readings.get(i).get("compacted").asBoolean()) {
                    compacted.add(i);
                }
            }
            // Nothing but heaptap collects the whole heap here: one forced collection a reading, every fourth compacting.
            assertTrue(compacted.size() >= 2, said);
            for (int i = 1; i < compacted.size(); i++) {
                assertEquals(4, compacted.get(i) - compacted.get(i - 1), said);
            }
            JsonNode oom = heap.get("timeToOom");
            if (compacted.size() < 5) {
                assertTrue(oom.isNull(), said);
            } else {
                assertEquals(compacted.size(), oom.get("points").asInt(), said);
                assertEquals(0, oom.get("deadWoodShare").asDouble(), said);
            }
            System.out.println("SerialCompactionIT: " + readings.size() + " readings, fully compacted at " + compacted);
        }
    }
}
