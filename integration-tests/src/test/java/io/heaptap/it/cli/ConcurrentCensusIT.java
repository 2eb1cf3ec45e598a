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
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ZGC and Shenandoah collect while the application runs, and their heap after GC also counts what it allocated during
 * the cycle (#36: 1.3-3.6 GB on a 1.1 GB live set), which made a time to OOM of 38 s out of a leak of hours. There a
 * leak watch's time to OOM follows the census's live bytes instead: the report says which reading it follows, every
 * reading carries both figures, and the projection lands within 15% of the true time, the room left at the leak's
 * rate.
 */
class ConcurrentCensusIT {
    static final String ENTRY = CensusLeak.Entry.class.getName();

    static Stream<Arguments> collectors() {
        // Generational ZGC on the newest JDK; Shenandoah in its single-generation mode on the one CI runs by default.
        return Stream.of(Arguments.of(Jdk.newest(), "-XX:+UseZGC"), Arguments.of(Jdk.current(), "-XX:+UseShenandoahGC"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("collectors")
    void theTimeToOomFollowsTheCensusOnConcurrentCollectors(Jdk jdk, String collector) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, CensusLeak.class, List.of("-Xmx2g", collector))) {
            target.send("leak");
            target.awaitLine("leaking", Duration.ofSeconds(30));
            target.send("garbage");
            target.awaitLine("collecting garbage", Duration.ofSeconds(30));
            Result r = HeaptapCli.run("leaks", Long.toString(target.pid()), "--duration", "30s", "--every", "5s", "--gc",
                    "--format", "json");
            assertEquals(0, r.exitCode(), r::toString);
            JsonNode report = Profiles.json(r.stdout());
            JsonNode heap = report.get("heap");
            String said = "watch " + report.get("watch") + "\nheap " + heap;

            JsonNode oom = heap.get("timeToOom");
            assertEquals("census", oom.get("reading").asText(), said);
            JsonNode points = heap.get("heapAfterGc");
            for (JsonNode p : points) {
                assertTrue(p.get("liveBytes").asLong() > CensusLeak.STABLE_MIB << 20, said);
                assertTrue(p.get("bytes").asLong() > 0, said);
            }
            // The truth: entries a second by the workload's wall clock, each of the size the census gives its class (32 bytes
            // with compressed oops, 40 on generational ZGC, which has none).
            JsonNode growth = CensusIT.row(heap.get("classGrowth"), ENTRY);
            double entryBytes = (growth.get("bytesAfter").asDouble() - growth.get("bytesBefore").asDouble())
                    / growth.get("instancesGrowth").asDouble();
            double perMinute = CensusLeak.ENTRIES_PER_SECOND * 60.0 * entryBytes;
            double room = oom.get("maxHeapBytes").asDouble() - points.get(points.size() - 1).get("liveBytes").asDouble();
            double truthMillis = room / perMinute * 60_000;
            assertTrue(oom.get("trend").asBoolean(), said);
            assertEquals(truthMillis, oom.get("millis").asDouble(), 0.15 * truthMillis, said);
            boolean covered = oom.get("millisLow").asDouble() <= truthMillis && truthMillis <= oom.get("millisHigh").asDouble();

            // The census reaches heaptap's samples of garbage through its weak references: they are left out of it, and
            // byte[], the garbage's class, shows no growth of theirs (counted, it moved by megabytes between censuses).
            long heaptaps = heap.get("heaptapSamplesBytes").asLong();
            assertTrue(heaptaps > 0, said);
            double garbageGrowth = 0;
            for (JsonNode g : heap.get("classGrowth")) {
                garbageGrowth += g.get("name").asText().equals("byte[]") ? g.get("bytesPerMinute").asDouble() : 0;
            }
            assertTrue(garbageGrowth < 2 << 20, said);
            System.out.println(String.format(Locale.ROOT, "ConcurrentCensusIT %s %s: %.0f-byte entries; slope %.0f/min [%.0f, %.0f]"
                            + " (truth %.0f); time to OOM %.0f min [%.0f, %.0f] (truth %.0f, %s); heaptap's samples left out of the last"
                            + " census: %d bytes; byte[] grew %.0f bytes/min", jdk, collector, entryBytes,
                    oom.get("heapBytesPerMinute").asDouble(), oom.get("heapBytesPerMinuteLow").asDouble(),
                    oom.get("heapBytesPerMinuteHigh").asDouble(), perMinute, oom.get("millis").asDouble() / 60_000,
                    oom.get("millisLow").asDouble() / 60_000, oom.get("millisHigh").asDouble() / 60_000, truthMillis / 60_000,
                    covered ? "inside" : "outside", heaptaps, garbageGrowth));

            // A census on its own, while a capture samples the garbage thread: the samples allocated while its forced cycle
            // ran are still unexamined when it counts, and it leaves them out too, and says how much.
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "1m", "--interval", "64k").exitCode());
            Result census = HeaptapCli.run("census", pid, "--format", "json");
            assertEquals(0, census.exitCode(), census::toString);
            JsonNode counted = Profiles.json(census.stdout());
            assertTrue(counted.get("heaptapSamplesBytes").asLong() > 0, counted::toString);
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());
        }
    }
}
