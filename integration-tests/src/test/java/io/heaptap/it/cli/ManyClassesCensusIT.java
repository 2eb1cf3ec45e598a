package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.ManyClasses;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * #36, bad input: 50,000 loaded classes of the application's own, each with an instance. A census names its
 * top classes and sums the 50,000 others in one row (bounded in the target: its text is reserved from heaptap's
 * heap budget before it is asked for), accounts for the heap after GC, and leaves the target without an
 * OutOfMemoryError. Then, during a {@code leaks --gc} watch, the application drops the loader after the first
 * forced collection: the next one unloads the classes, and the report says in one line how many fewer classes
 * the last census counted, with no class growth below zero.
 */
class ManyClassesCensusIT {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.heaptap.it.support.Jdk#all")
    void fiftyThousandClassesThenTheirUnloading(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, ManyClasses.class, List.of("-Xmx512m", "-XX:+UseG1GC", "-XX:MetaspaceSize=256m"))) {
            String pid = Long.toString(target.pid());
            target.send("load");
            target.awaitLine("loaded", Duration.ofSeconds(60));

            Result json = HeaptapCli.run("census", pid, "--format", "json");
            assertEquals(0, json.exitCode(), json::toString);
            JsonNode c = Profiles.json(json.stdout());
            String said = c.toString();
            assertEquals(20, c.get("classes").size(), said);
            assertTrue(c.get("otherClasses").get("classes").asInt() >= ManyClasses.CLASSES, said);
            double total = c.get("censusBytes").asDouble();
            assertEquals(c.get("heapAfterGcBytes").asDouble(), total, 0.05 * total, said);
            Result text = HeaptapCli.run("census", pid);
            assertEquals(0, text.exitCode(), text::toString);
            assertTrue(text.out().lines().anyMatch(l -> l.matches(".*\\(5\\d{4} other classes\\)")), text::toString);
            assertTrue(target.isAlive());
            assertFalse(target.stderr().contains("OutOfMemoryError"), target::stderr);

            // The loader goes at the first forced collection of the watch; the second unloads its classes.
            target.send("drop-after-gc");
            target.awaitLine("armed", Duration.ofSeconds(30));
            Result watch = HeaptapCli.run("leaks", pid, "--duration", "8s", "--every", "4s", "--gc", "--format", "json");
            assertEquals(0, watch.exitCode(), watch::toString);
            target.awaitLine("dropped", Duration.ofSeconds(30));
            JsonNode heap = Profiles.json(watch.stdout()).get("heap");
            String saidHeap = heap.toString();
            assertTrue(heap.get("censuses").asInt() >= 2, saidHeap);
            int first = heap.get("classesFirst").asInt();
            int last = heap.get("classesLast").asInt();
            assertTrue(first >= ManyClasses.CLASSES, saidHeap);
            assertTrue(last < first - ManyClasses.CLASSES + 1_000, "the classes were unloaded: " + saidHeap);
            // No class grows below nothing. Its instances may fall while its bytes grow: a table resized to fewer, larger arrays.
            for (JsonNode g : heap.get("classGrowth")) {
                assertTrue(g.get("bytesPerMinute").asDouble() > 0 && g.get("bytesAfter").asLong() > g.get("bytesBefore").asLong(), saidHeap);
            }
            // After the unloading the heap is ~4 MiB. The census (-all) also counts what was allocated between the collection
            // and its safepoint, where the threads' buffers (TLABs) are retired as filler arrays: 0.3-1.1 MiB here (JDK 25 names
            // them jdk.internal.vm.FillerElement[]), nothing on a large heap's scale but not 5% of 4 MiB. So 5% or 2 MiB.
            double census = heap.get("censusBytes").asDouble();
            double afterGc = heap.get("heapAfterGcBytes").asDouble();
            assertTrue(Math.abs(census - afterGc) <= Math.max(0.05 * afterGc, 2 << 20), saidHeap);
            assertTrue(target.isAlive());
            assertFalse(target.stderr().contains("OutOfMemoryError"), target::stderr);
            System.out.println(String.format(Locale.ROOT, "ManyClassesCensusIT %s: census of %d classes, %d named; %.1f MiB against %.1f MiB"
                            + " after GC, pause %d ms; watch: %d classes at the first census, %d at the last, census %.2f MiB against %.2f after GC", jdk,
                    c.get("classes").size() + c.get("otherClasses").get("classes").asInt(), c.get("classes").size(), total / (1 << 20),
                    c.get("heapAfterGcBytes").asDouble() / (1 << 20), c.get("censusPauseMillis").asLong(), first, last, census / (1 << 20), afterGc / (1 << 20)));
        }
    }
}
