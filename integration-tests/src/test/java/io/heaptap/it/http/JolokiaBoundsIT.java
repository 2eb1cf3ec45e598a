package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.Threads;
import io.heaptap.it.workload.Allocator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue #15's first attack: a 64 KiB Jolokia bulk POST of 1,900 {@code read *:*} requests, sent by
 * user nobody to a -Xmx256m JVM, used to run it out of heap. Now nobody is refused at once, the token
 * holder's bulk is refused for its size, and the largest bulk heaptap does answer stays within its
 * budget: the application's heap and threads are untouched.
 */
class JolokiaBoundsIT {
    static byte[] bulk(int n, String... items) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append(items[i % items.length]);
        }
        return b.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theBulkAttackLeavesASmallHeapTargetAliveAndItsThreadsUnharmed() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class, List.of("-Xmx256m"))) {
            Http http = HttpEndpoint.serve(target.pid());
            String before = Threads.threadNames(target.pid());
            byte[] attack = bulk(1900, "{\"type\":\"read\",\"mbean\":\"*:*\"}");
            assertTrue(attack.length > 55_000 && attack.length <= 64 * 1024, "the issue's 64 KiB body: " + attack.length);

            // As user nobody, with curl: refused before anything is parsed.
            assertEquals("root", System.getProperty("user.name"), "runuser needs root (CI runs the tests as root)");
            long t0 = System.nanoTime();
            Process curl = new ProcessBuilder("runuser", "-u", "nobody", "--", "curl", "-s", "-m", "60", "-o", "/dev/null",
                    "-w", "%{http_code}", "-H", "Content-Type: application/json", "--data-binary", "@-", http.uri() + "jolokia/")
                    .redirectErrorStream(true).start();
            curl.getOutputStream().write(attack);
            curl.getOutputStream().close();
            String status = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(curl.waitFor(90, TimeUnit.SECONDS));
            assertEquals("401", status, "nobody's bulk");
            double nobodySeconds = (System.nanoTime() - t0) / 1e9;

            // With the token: refused for its size, at once.
            t0 = System.nanoTime();
            Reply tooMany = http.post("/jolokia/", attack, "Content-Type", "application/json");
            double tooManySeconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(413, tooMany.status(), tooMany.toString());
            assertTrue(tooMany.text().contains("at most 100"), tooMany.text());

            // The largest bulk answered: 100 requests of the biggest kinds allowed, ten times over.
            byte[] largest = bulk(100, "{\"type\":\"list\",\"config\":{\"maxDepth\":0,\"maxObjects\":0}}",
                    "{\"type\":\"read\",\"mbean\":\"*:*\"}", "{\"type\":\"read\",\"mbean\":\"java.lang:type=MemoryPool,*\"}",
                    "{\"type\":\"read\",\"mbean\":\"io.heaptap:type=Heaptap\"}", "{\"type\":\"search\",\"mbean\":\"*:*\"}");
            long maxHeapUsed = 0;
            double slowest = 0;
            int longestAnswer = 0;
            try (JMXConnector jmx = Jmx.local(target.pid())) {
                MBeanServerConnection s = jmx.getMBeanServerConnection();
                for (int round = 0; round < 10; round++) {
                    t0 = System.nanoTime();
                    Reply r = http.post("/jolokia/", largest, "Content-Type", "application/json");
                    slowest = Math.max(slowest, (System.nanoTime() - t0) / 1e9);
                    assertEquals(200, r.status(), r.toString());
                    longestAnswer = Math.max(longestAnswer, r.body().length);
                    assertTrue(r.body().length < 6 << 20, "bounded answer: " + r.body().length + " bytes");
                    JsonNode answers = HttpEndpoint.json(r);
                    assertEquals(100, answers.size());
                    for (JsonNode a : answers) {
                        int st = a.get("status").asInt();
                        assertTrue(st == 200 || st == 403 || st == 503, a.toString().substring(0, Math.min(300, a.toString().length())));
                    }
                    assertEquals(403, answers.get(1).get("status").asInt(), "read *:* touches MBeans heaptap does not expose");
                    CompositeData heap = (CompositeData) s.getAttribute(new ObjectName("java.lang:type=Memory"), "HeapMemoryUsage");
                    maxHeapUsed = Math.max(maxHeapUsed, (Long) heap.get("used"));
                }
            }
            System.out.printf("Jolokia bulk attack: nobody's 1,900-item POST refused (401) in %.2f s, the token holder's (413) in %.2f s;"
                    + " 10 x 100-item bulks: slowest %.2f s, longest answer %,d bytes, target heap used at most %,d bytes of 256 MiB%n",
                    nobodySeconds, tooManySeconds, slowest, longestAnswer, maxHeapUsed);
            assertTrue(target.isAlive());
            assertEquals(200, http.get("/api/status").status());
            String after = Threads.threadNames(target.pid());
            assertEquals(Threads.threadCount(before, "allocator"), Threads.threadCount(after, "allocator"), "the application's threads live on");
            assertFalse(target.stderr().contains("OutOfMemoryError"), target.stderr());
        }
    }

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    /**
     * Issue #34's second failure: on -Xmx16m a bulk of 100 {@code list} requests ran heaptap's thread out of
     * heap, 10 times in 10, and with -XX:+ExitOnOutOfMemoryError (a common production flag) one such request
     * ended the application. Now each answer is reserved from heaptap's heap budget (2 MiB here) and counted
     * as it is written: the target lives, and every answer is bounded or a clear refusal.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void aBulkOfListsOnASixteenMegabyteHeapIsBoundedAndTheTargetLives(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class, List.of("-Xmx16m", "-XX:+ExitOnOutOfMemoryError"))) {
            Http http = HttpEndpoint.serve(target.pid());
            byte[] lists = bulk(100, "{\"type\":\"list\",\"config\":{\"maxDepth\":0,\"maxObjects\":0}}");
            byte[] mixed = bulk(100, "{\"type\":\"list\"}", "{\"type\":\"read\",\"mbean\":\"java.lang:type=MemoryPool,*\"}",
                    "{\"type\":\"read\",\"mbean\":\"io.heaptap:type=Heaptap\"}", "{\"type\":\"search\",\"mbean\":\"*:*\"}",
                    "{\"type\":\"read\",\"mbean\":\"java.lang:type=Threading\"}");
            int longest = 0;
            int refusedWhole = 0;
            int answered = 0;
            int cut = 0;
            for (int round = 0; round < 10; round++) {
                // Two at once: both of heaptap's workers answer Jolokia together.
                CompletableFuture<Reply> other = CompletableFuture.supplyAsync(() -> http.post("/jolokia/", mixed,
                        "Content-Type", "application/json"));
                List<Reply> replies;
                try {
                    replies = List.of(http.post("/jolokia/", lists, "Content-Type", "application/json"), other.join());
                } catch (RuntimeException e) {
                    throw new AssertionError("round " + round + ": " + e + "; the target is " + (target.isAlive() ? "alive" : "gone")
                            + "; its stderr:\n" + target.stderr(), e);
                }
                for (Reply r : replies) {
                    assertTrue(target.isAlive(), "round " + round + ": the target exited; its stderr:\n" + target.stderr());
                    longest = Math.max(longest, r.body().length);
                    assertTrue(r.body().length <= 256 << 10, "at most an eighth of heaptap's 2 MiB budget: " + r.body().length);
                    if (r.status() == 503) {
                        HttpEndpoint.expectError(r, 503, null);
                        assertTrue(r.text().contains("heap budget"), r.text());
                        refusedWhole++;
                        continue;
                    }
                    assertEquals(200, r.status(), r.toString());
                    JsonNode answers = HttpEndpoint.json(r);
                    assertEquals(100, answers.size());
                    for (JsonNode a : answers) {
                        int st = a.get("status").asInt();
                        assertTrue(st == 200 || st == 503, a.toString().substring(0, Math.min(300, a.toString().length())));
                        if (st == 503) {
                            assertEquals("heaptap.limit", a.get("error_type").asText(), a.toString());
                            cut++;
                        } else {
                            answered++;
                        }
                    }
                }
            }
            System.out.printf("%s, -Xmx16m: 10 x 2 bulks of 100 at once: %d answers, %d cut by the answer bound, %d bulks refused"
                    + " by the heap budget; longest answer %,d bytes%n", jdk, answered, cut, refusedWhole, longest);
            assertTrue(answered >= 10, "lists are still answered: " + answered);
            assertTrue(target.isAlive());
            assertEquals(200, http.get("/api/status").status());
            assertFalse(target.stderr().contains("OutOfMemoryError"), target.stderr());
        }
    }

    /**
     * Issue #34's ninth failure: one Jolokia exec of {@code openRawDump} per slot held all four of the agent's
     * raw-dump slots, and then every dump through every door failed. Raw dumps are the CLI's alone: refused
     * through Jolokia however the operation is named, and the CLI's own dump works after.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void rawDumpOperationsAreRefusedThroughJolokia(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            Http http = HttpEndpoint.serve(target.pid());
            for (String op : List.of("openRawDump", "openRawDump(boolean,boolean)", "openRawDump(boolean,boolean)", "openRawDump", "openRawDump",
                    "readRawDump(java.lang.String,long,int)", "closeRawDump(java.lang.String)")) {
                String args = op.startsWith("openRawDump") ? "[false,false]" : op.startsWith("readRawDump") ? "[\"1\",0,100]" : "[\"1\"]";
                Reply r = http.post("/jolokia/", ("{\"type\":\"exec\",\"mbean\":\"io.heaptap:type=Heaptap\",\"operation\":\"" + op
                        + "\",\"arguments\":" + args + "}").getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
                assertEquals(200, r.status(), r.toString());
                JsonNode answer = HttpEndpoint.json(r);
                assertEquals(403, answer.get("status").asInt(), op + ": " + r.text());
            }
            HeaptapCli.Result capture = HeaptapCli.run("capture", Long.toString(target.pid()), "--duration", "1s");
            assertEquals(0, capture.exitCode(), capture.toString());
            HeaptapCli.Result status = HeaptapCli.run("status", Long.toString(target.pid()));
            assertEquals(0, status.exitCode(), status.toString());
        }
    }
}
