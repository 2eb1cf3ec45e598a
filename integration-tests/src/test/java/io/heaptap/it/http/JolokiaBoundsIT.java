package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

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
import java.util.concurrent.TimeUnit;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.Test;

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
}
