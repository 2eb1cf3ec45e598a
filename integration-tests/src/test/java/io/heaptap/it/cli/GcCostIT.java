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
import io.heaptap.it.support.Wait;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.workload.GcPressure;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GC cost in heaptap's reports against the truth: a small heap under heavy allocation shows
 * many collections and a high GC CPU share, an idle JVM shows none, and heaptap's counts agree
 * with the target's own GC MXBeans read by the test over JMX around the same window.
 *
 * <p>The test reads the counters right before and right after heaptap's start, and right before
 * and after its stop. heaptap's window lies between, so its differences must fall inside
 * [end-before - start-after, end-after - start-before]: exact bounds, no tolerance.
 */
class GcCostIT {
    static final ObjectName HEAPTAP = Jmx.NAME;

    static Stream<Arguments> collectors() {
        return Jdk.all().stream().flatMap(jdk -> Stream.of("UseG1GC", "UseParallelGC", "UseZGC").map(gc -> Arguments.of(jdk, gc)));
    }

    /** Counters of every GC MXBean and the process's CPU time, read by the test itself. */
    record Counters(Map<String, long[]> beans, long processCpuNanos) {
        static Counters read(MBeanServerConnection s) throws Exception {
            Map<String, long[]> beans = new LinkedHashMap<>();
            for (ObjectName gc : s.queryNames(new ObjectName(ManagementFactory.GARBAGE_COLLECTOR_MXBEAN_DOMAIN_TYPE + ",*"), null)) {
                beans.put((String) s.getAttribute(gc, "Name"),
                        new long[] {(Long) s.getAttribute(gc, "CollectionCount"), (Long) s.getAttribute(gc, "CollectionTime")});
            }
            long cpu = (Long) s.getAttribute(new ObjectName(ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME), "ProcessCpuTime");
            return new Counters(beans, cpu);
        }
    }

    @ParameterizedTest(name = "{0} -XX:+{1}")
    @MethodSource("collectors")
    void heavyAllocationInASmallHeapCostsMuchGcAndAgreesWithTheGcMXBeans(Jdk jdk, String gc) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, GcPressure.class, List.of("-Xmx64m", "-XX:+" + gc))) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("status", pid).exitCode(), "heaptap loads");
            try (JMXConnector c = Jmx.local(target.pid())) {
                MBeanServerConnection s = c.getMBeanServerConnection();
                target.send("churn");
                target.awaitLine("churning", Duration.ofSeconds(30));

                Counters beforeStart = Counters.read(s);
                s.invoke(HEAPTAP, "start", new Object[] {"5m", "512k", "", 0, 0, "false", 0, "", ""}, Jmx.START_ALL);
                // heaptap reads its CPU baseline off the start's path, or at its first status read if that comes
                // first: this read puts it before the test's own, and so inside the bounds below.
                attribute(s, "GcCpuShare");
                Counters afterStart = Counters.read(s);
                // At least 4 s of capture and 50 collections: states heaptap reports, not a sleep.
                Wait.until("4 s of capture with 50 collections", Duration.ofMinutes(2),
                        () -> attribute(s, "TimeLeftMillis") <= Duration.ofMinutes(5).minusSeconds(4).toMillis()
                                && attribute(s, "GcCollections") >= 50);
                Counters beforeStop = Counters.read(s);
                s.invoke(HEAPTAP, "stop", new Object[0], new String[0]);
                Counters afterStop = Counters.read(s);

                JsonNode g = Profiles.json(dump(s, "json")).get("gc");
                String text = new String(dump(s, "text"), StandardCharsets.UTF_8);
                String report = String.format(Locale.ROOT, "%s %s: %d collections, pauses %d ms (%.1f%%), GC CPU %.1f%% of the process's "
                                + "(%.2f cores), window %d ms%n%s", jdk, gc, g.get("collections").asLong(), g.get("pauseMillis").asLong(),
                        100 * g.get("pauseShare").asDouble(), 100 * g.get("cpu").get("share").asDouble(),
                        g.get("cpu").get("gcCores").asDouble(), g.get("windowMillis").asLong(), g);
                System.out.println(report);

                // Consistency with the JVM's own counters over the same window, bean by bean.
                long expectedCollections = 0;
                for (Map.Entry<String, long[]> bean : afterStop.beans().entrySet()) {
                    JsonNode row = collector(g, bean.getKey());
                    String name = bean.getKey();
                    assertWithin(row.get("collections").asLong(), beforeStop.beans().get(name)[0] - afterStart.beans().get(name)[0],
                            bean.getValue()[0] - beforeStart.beans().get(name)[0], name + " collections\n" + report);
                    assertWithin(row.get("timeMillis").asLong(), beforeStop.beans().get(name)[1] - afterStart.beans().get(name)[1],
                            bean.getValue()[1] - beforeStart.beans().get(name)[1], name + " time\n" + report);
                    if (!name.contains("Pauses") && !name.contains("Concurrent")) {
                        expectedCollections += row.get("collections").asLong();
                    }
                }
                assertEquals(afterStop.beans().size(), g.get("collectors").size(), "one row per GC MXBean\n" + report);
                assertEquals(expectedCollections, g.get("collections").asLong(), "cycles and collections, not pauses within cycles\n" + report);
                assertWithin(g.get("cpu").get("processNanos").asLong(), beforeStop.processCpuNanos() - afterStart.processCpuNanos(),
                        afterStop.processCpuNanos() - beforeStart.processCpuNanos(), "process CPU\n" + report);

                // Heavy allocation in a small heap: many collections and a high GC CPU share.
                assertTrue(g.get("collector").asText().startsWith(gc.equals("UseG1GC") ? "G1" : gc.equals("UseZGC") ? "ZGC" : "Parallel"),
                        report);
                assertTrue(g.get("collections").asLong() >= 50, report);
                assertTrue(g.get("cpu").get("available").asBoolean(), report);
                assertTrue(g.get("cpu").get("share").asDouble() >= 0.20, "GC CPU share\n" + report);
                assertTrue(g.get("cpu").get("gcThreadNanos").asLong() <= g.get("cpu").get("processNanos").asLong() * 1.05 + 20_000_000,
                        "GC threads are part of the process\n" + report);
                assertTrue(g.get("heapAroundGc").get("collections").asLong() > 0, report);
                JsonNode around = g.get("heapAroundGc");
                if (gc.equals("UseZGC")) {
                    // Read at a cycle's start and end: on this full heap the application refills what a cycle frees
                    // while it runs (seen: 65.7 MB at the starts, 65.9 MB at the ends), and the report must say so.
                    assertTrue(around.get("concurrentCycles").asBoolean(), report);
                    assertTrue(text.contains("heap used at the start -> end of a concurrent cycle"), text);
                    assertTrue(around.get("maxAfterBytes").asLong() <= g.get("heap").get("maxBytes").asLong(), report);
                } else {
                    // Read in the pause itself: what a collection freed is the gap.
                    assertFalse(around.get("concurrentCycles").asBoolean(), report);
                    assertTrue(around.get("meanBeforeBytes").asLong() > around.get("meanAfterBytes").asLong(),
                            "collections free memory\n" + report);
                    assertTrue(text.contains("heap used before -> after a collection"), text);
                }
                assertEquals(64L << 20, g.get("heap").get("maxBytes").asLong(), 8L << 20, report);
                assertFalse(g.get("alarm").isNull(), report);
                assertTrue(text.contains("  >> GC used"), text);
                assertTrue(text.indexOf("GC during the capture") < text.indexOf("Top allocation sites"), text);
                assertTrue(target.isAlive());
            }
        }
    }

    @ParameterizedTest(name = "{0} -XX:+{1}")
    @MethodSource("collectors")
    void anIdleJvmCostsNoGc(Jdk jdk, String gc) throws Exception {
        // A large heap, and for the generational collectors a large young generation, so that what
        // attaching and heaptap itself allocate (~20 MB) cannot trigger a collection; ZGC's warm-up
        // starts at 10% of the heap.
        List<String> heap = gc.equals("UseZGC") ? List.of("-Xmx1g") : List.of("-Xmx1g", "-Xmn512m");
        try (TargetJvm target = TargetJvm.start(jdk, GcPressure.class,
                Stream.concat(heap.stream(), Stream.of("-XX:+" + gc)).toList())) {
            String pid = Long.toString(target.pid());
            Result capture = HeaptapCli.run("capture", pid, "--duration", "3s");
            assertEquals(0, capture.exitCode(), capture::toString);
            Result dump = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, dump.exitCode(), dump::toString);
            JsonNode g = Profiles.json(dump.stdout()).get("gc");
            String report = String.format(Locale.ROOT, "%s %s idle: %d collections, GC CPU %.1f%% of the process's (%.4f cores)%n%s",
                    jdk, gc, g.get("collections").asLong(), 100 * g.get("cpu").get("share").asDouble(),
                    g.get("cpu").get("gcCores").asDouble(), g);
            System.out.println(report);

            assertEquals(0, g.get("collections").asLong(), "an idle JVM with a 1 GB heap collects nothing in 3 s\n" + report);
            assertEquals(0, g.get("pauseMillis").asLong(), report);
            assertTrue(capture.out().contains("  no collection during the capture"), capture.out());
            assertFalse(capture.out().contains(">>"), capture.out());
            assertTrue(g.get("alarm").isNull(), report);
            assertTrue(g.get("cpu").get("available").asBoolean(), report);
            assertTrue(g.get("cpu").get("gcCores").asDouble() < 0.02, "GC threads near idle\n" + report);
            assertTrue(target.isAlive());
        }
    }

    static JsonNode collector(JsonNode gc, String name) {
        for (JsonNode row : gc.get("collectors")) {
            if (row.get("name").asText().equals(name)) {
                return row;
            }
        }
        throw new AssertionError("no row for " + name + " in " + gc);
    }

    static void assertWithin(long value, long low, long high, String what) {
        assertTrue(value >= low && value <= high, what + ": " + value + " not in [" + low + ", " + high + "]");
    }

    static byte[] dump(MBeanServerConnection s, String format) throws Exception {
        return (byte[]) s.invoke(HEAPTAP, "dumpBytes", new Object[] {format, "", 0L, false},
                new String[] {"java.lang.String", "java.lang.String", "long", "boolean"});
    }

    static long attribute(MBeanServerConnection s, String name) {
        try {
            return ((Number) s.getAttribute(HEAPTAP, name)).longValue();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
