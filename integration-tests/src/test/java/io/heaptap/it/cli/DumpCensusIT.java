package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.CensusLeak;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * #36: {@code dump --gc} takes a class census right after its forced collection, as {@code leaks --gc} and
 * {@code census} do. Against a target whose 512 MiB stable set predates heaptap, the dump names the stable set
 * by its class, bounds the census to its top classes plus one row for the rest, and its census accounts for the
 * collector's heap after GC within 5%. A dump without {@code --gc} takes none (no pause it did not ask for); the
 * same holds in the target through HTTP ({@code /api/dump?gc=true}).
 */
class DumpCensusIT {
    static final long MIB = 1L << 20;

    /** The target's heap inspections so far: its stdout read up to a mark it echoes now. */
    private static long heapInspections(TargetJvm target, String mark) throws Exception {
        target.send("echo " + mark);
        target.awaitLine(mark, Duration.ofSeconds(30));
        return target.stdout().lines().filter(l -> l.contains("HeapInspection")).count();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.heaptap.it.support.Jdk#all")
    void dumpWithGcCarriesACensusThatAccountsForTheHeap(Jdk jdk) throws Exception {
        // Each safepoint in the target's stdout: a census is a heap inspection (VM operation GC_HeapInspection).
        try (TargetJvm target = TargetJvm.start(jdk, CensusLeak.class, List.of("-Xmx2g", "-XX:+UseG1GC", "-Xlog:safepoint=info:stdout"))) {
            target.send("leak");
            target.awaitLine("leaking", Duration.ofSeconds(30));
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "3s", "--interval", "64k").exitCode());
            Wait.forState(target.pid(), "stopped", Duration.ofMinutes(1));

            Result json = HeaptapCli.run("dump", pid, "--gc", "--format", "json");
            assertEquals(0, json.exitCode(), json::toString);
            JsonNode census = Profiles.json(json.stdout()).get("census");
            String said = census.toString();
            assertTrue(census.get("taken").asBoolean(), said);
            assertEquals("", census.get("refusal").asText(), said);
            // Bounded: at most 20 classes by name, every other class in one row.
            assertTrue(census.get("classes").size() <= 20 && census.get("classes").size() > 0, said);
            assertTrue(census.get("otherClasses").get("classes").asInt() > 100, said);
            JsonNode first = census.get("classes").get(0);
            assertEquals("byte[]", first.get("name").asText(), said);
            assertTrue(first.get("bytes").asLong() >= CensusLeak.STABLE_MIB * MIB, said);
            double total = census.get("censusBytes").asDouble();
            double afterGc = census.get("heapAfterGcBytes").asDouble();
            assertTrue(Math.abs(total - afterGc) <= 0.05 * afterGc, () -> "census " + total + " vs heap after GC " + afterGc + "\n" + said);
            long named = 0;
            for (JsonNode row : census.get("classes")) {
                named += row.get("bytes").asLong();
            }
            assertEquals(census.get("censusBytes").asLong(), named + census.get("otherClasses").get("bytes").asLong(), said);
            System.out.println(String.format(Locale.ROOT, "DumpCensusIT %s: dump --gc census %.1f MiB against %.1f MiB heap after GC"
                    + " (%.2f%%), census pause %d ms", jdk, total / MIB, afterGc / MIB, 100 * (total - afterGc) / afterGc,
                    census.get("censusPauseMillis").asLong()));

            Result text = HeaptapCli.run("dump", pid, "--gc");
            assertEquals(0, text.exitCode(), text::toString);
            assertTrue(text.out().contains("Class census after the forced collection"), text::toString);
            assertTrue(text.out().lines().anyMatch(l -> l.endsWith("  byte[]")), text::toString);

            // pprof has no place for a census: dump --gc in it collects once and takes none (no second pause).
            long inspections = heapInspections(target, "before-pprof");
            Result pprof = HeaptapCli.run("dump", pid, "--gc", "--format", "pprof", "--out", Paths.workDir("dump-census").resolve("gc.pb.gz").toString());
            assertEquals(0, pprof.exitCode(), pprof::toString);
            assertEquals(inspections, heapInspections(target, "after-pprof"), "dump --gc --format pprof took a census");
            assertEquals(0, HeaptapCli.run("dump", pid, "--gc", "--format", "html", "--out",
                    Paths.workDir("dump-census").resolve("gc.html").toString()).exitCode());
            assertEquals(inspections + 1, heapInspections(target, "after-html"), "html shows a census: one heap inspection");

            Result plain = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, plain.exitCode(), plain::toString);
            assertTrue(Profiles.json(plain.stdout()).get("census").isNull(), "no --gc, no census");

            // In the target (HTTP, the MBean's dump): the same census with gc, none without.
            Http http = SmallHeapDumpIT.serve(target.pid());
            Reply withGc = http.get("/api/dump?format=json&gc=true");
            assertEquals(200, withGc.status(), withGc::toString);
            JsonNode inTarget = Profiles.json(withGc.body()).get("census");
            assertTrue(inTarget.get("taken").asBoolean(), inTarget::toString);
            assertTrue(Math.abs(inTarget.get("censusBytes").asDouble() - inTarget.get("heapAfterGcBytes").asDouble())
                    <= 0.05 * inTarget.get("heapAfterGcBytes").asDouble(), inTarget::toString);
            Reply without = http.get("/api/dump?format=json");
            assertEquals(200, without.status(), without::toString);
            assertTrue(Profiles.json(without.body()).get("census").isNull(), "no gc, no census");
        }
    }
}
