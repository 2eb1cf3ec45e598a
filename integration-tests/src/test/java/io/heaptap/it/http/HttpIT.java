package io.heaptap.it.http;

import static io.heaptap.it.support.HttpEndpoint.json;
import static io.heaptap.it.support.HttpEndpoint.expectError;
import static io.heaptap.it.support.Threads.threadCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto.Profile;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.Threads;
import io.heaptap.it.workload.Allocator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * heaptap's HTTP endpoint, served by {@code heaptap serve} in a separate JVM (the newest JDK here)
 * and exercised by the JDK's HTTP client and raw sockets over loopback: every route, every error
 * status, bad clients, concurrency with JMX.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpIT {
    TargetJvm target;
    Http http;

    @BeforeAll
    void serve() throws IOException {
        target = TargetJvm.start(Jdk.newest(), Allocator.class);
        http = HttpEndpoint.serve(target.pid());
    }

    @AfterAll
    void close() throws InterruptedException {
        target.close();
    }

    @BeforeEach
    void idle() {
        assertEquals(200, http.post("/api/reset").status());
    }

    @Test
    void restApiStartsCapturesDumpsAndResets() {
        JsonNode status = json(http.get("/api/status"));
        assertEquals("idle", status.get("state").asText());
        assertEquals(target.pid(), status.get("pid").asLong());
        assertEquals(http.uri().toString(), status.get("url").asText());

        Reply started = http.post("/api/start?duration=1m&interval=64k&live=true");
        assertEquals(200, started.status(), started.toString());
        assertEquals("recording", json(started).get("state").asText());
        assertEquals(65536, json(started).get("options").get("intervalBytes").asLong());
        assertEquals(0, json(started).get("options").get("sampleRate").asLong(), "interval=64k fixes the interval");
        assertEquals(65536, json(started).get("intervalMinBytes").asLong());
        assertEquals(65536, json(started).get("intervalMaxBytes").asLong());
        assertTrue(json(started).get("startedBy").asText().startsWith("http 127.0.0.1:"));
        Wait.until("samples", Duration.ofSeconds(30), () -> json(http.get("/api/status")).get("samples").asLong() > 100);

        JsonNode gc = json(http.get("/api/status")).get("gc");
        assertFalse(gc.isNull(), "the GC cost of the capture is part of the status");
        assertFalse(gc.get("collector").asText().isBlank());
        assertTrue(json(http.get("/api/status")).get("gcSummary").size() > 0);

        // The CLI sees the capture started over HTTP: one Controller behind every door.
        assertTrue(HeaptapCli.run("status", Long.toString(target.pid())).out().contains("started by:   http 127.0.0.1:"));

        Wait.until("top rows", Duration.ofSeconds(30), () -> json(http.get("/api/top?kind=alloc&n=5")).get("rows").size() > 0);
        JsonNode top = json(http.get("/api/top?kind=alloc&n=5"));
        assertTrue(top.get("rows").size() <= 5);
        assertTrue(top.get("rows").get(0).get("frame").asText().contains("Allocator."), top.toString());
        assertTrue(top.get("rows").get(0).get("estimatedBytes").asDouble() > 0);
        JsonNode live = json(http.get("/api/top?kind=live&n=3"));
        assertEquals("live", live.get("kind").asText());

        JsonNode flame = json(http.get("/api/flamegraph"));
        assertTrue(flame.get("alloc").toString().contains("allocateBuffer"), "the hot frame is in the allocation tree");

        for (String format : List.of("pprof", "json", "collapsed", "text", "html")) {
            Reply dump = http.get("/api/dump?format=" + format);
            assertEquals(200, dump.status(), format + ": " + dump);
            String type = dump.header("content-type").orElseThrow();
            String disposition = dump.header("content-disposition").orElseThrow();
            assertTrue(disposition.contains("filename=\"heaptap-" + target.pid() + "-"), disposition);
            switch (format) {
                case "pprof" -> {
                    assertEquals("application/octet-stream", type);
                    assertTrue(disposition.startsWith("attachment") && disposition.endsWith(".pb.gz\""), disposition);
                    Profile p = Profiles.pprof(dump.body());
                    assertEquals(4, p.getSampleTypeCount());
                }
                case "json" -> {
                    assertTrue(type.startsWith("application/json"), type);
                    assertTrue(json(dump).get("capture").get("samples").asLong() > 0);
                }
                case "collapsed" -> assertTrue(dump.text().lines().anyMatch(l -> l.contains("allocateBuffer") && l.matches(".* \\d+")));
                case "text" -> assertTrue(type.startsWith("text/plain") && dump.text().contains("Allocator."), type);
                case "html" -> {
                    assertTrue(type.startsWith("text/html"), type);
                    assertTrue(disposition.startsWith("inline"), disposition);
                    assertTrue(dump.text().contains("heaptapFlameGraph"));
                }
                default -> throw new AssertionError(format);
            }
        }
        Reply filtered = http.get("/api/dump?format=json&minAge=1ms&minGcs=0&gc=true");
        assertEquals(200, filtered.status(), filtered.toString());

        Reply stopped = http.post("/api/stop");
        assertEquals("stopped", json(stopped).get("state").asText());
        assertEquals(200, http.get("/api/dump?format=pprof").status(), "the stopped capture can still be dumped");
        Reply reset = http.post("/api/reset");
        assertEquals("idle", json(reset).get("state").asText());
        assertEquals(0, json(reset).get("weakRefs").asLong());
        // Netty and Jolokia inside a JDK 25 target: no Unsafe or restricted-method warnings.
        assertFalse(target.stderr().contains("Unsafe") || target.stderr().contains("restricted method"), target.stderr());
    }

    @Test
    void startAcceptsAJsonBody() {
        Reply r = http.post("/api/start", "{\"duration\":\"45s\",\"interval\":\"128k\",\"live\":false}".getBytes(StandardCharsets.UTF_8),
                "Content-Type", "application/json");
        assertEquals(200, r.status(), r.toString());
        assertEquals(45_000, json(r).get("options").get("durationMillis").asLong());
        assertFalse(json(r).get("options").get("live").asBoolean());
    }

    @Test
    void errorsAreJsonWithTheRightStatus() {
        expectError(http.post("/api/start?duration=soon"), 400, "duration");
        expectError(http.post("/api/start?duration=-5s"), 400, "duration");
        expectError(http.post("/api/start?interval=0"), 400, "interval");
        expectError(http.post("/api/start?interval=1"), 400, "interval");   // issue #15: 1 byte starved the target
        expectError(http.post("/api/start?rate=9"), 400, "rate");
        expectError(http.post("/api/start?rate=%D9%A3%D9%A0%D9%A0%D9%A0"), 400, "rate");  // Arabic-Indic 3000
        expectError(http.post("/api/start?rate=5000&interval=64k"), 400, "rate");
        expectError(http.get("/api/top?n=\u0663"), 400, "n");              // issue #15: Arabic-Indic 3 was taken as 3
        expectError(http.post("/api/start?depth=99999"), 400, "depth");
        expectError(http.post("/api/start?durtion=5s"), 400, "durtion");
        expectError(http.post("/api/start?live=maybe"), 400, "live");
        expectError(http.post("/api/start", "{not json".getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json"), 400, null);
        expectError(http.get("/api/dump?format=docx"), 400, "format");
        expectError(http.get("/api/top?kind=dead"), 400, "kind");
        expectError(http.get("/api/top?n=0"), 400, "n");
        assertEquals("idle", json(http.get("/api/status")).get("state").asText(), "bad requests change nothing");

        expectError(http.get("/api/dump"), 409, null);   // nothing recorded yet
        expectError(http.get("/debug/pprof/allocs"), 409, null);
        assertEquals(200, http.post("/api/start?duration=1m").status());
        Reply again = http.post("/api/start?duration=1m");
        expectError(again, 409, null);
        assertTrue(json(again).get("error").get("message").asText().contains("already running"));

        expectError(http.get("/no/such/route"), 404, null);
        Reply wrongMethod = http.get("/api/start");
        expectError(wrongMethod, 405, null);
        assertEquals("POST", wrongMethod.header("allow").orElseThrow());
        expectError(http.method("DELETE", "/api/status"), 405, null);

        Reply tooLarge = http.post("/api/start", new byte[200_000], "Content-Type", "application/json");
        assertEquals(413, tooLarge.status(), tooLarge.toString());
    }

    @Test
    void everyResponseIsNosniffAndNotCorsByDefault() {
        for (String path : List.of("/", "/api/status", "/assets/d3.js", "/debug/pprof/", "/jolokia/version", "/nope")) {
            Reply r = http.get(path);
            assertEquals("nosniff", r.header("x-content-type-options").orElse(null), path);
            assertTrue(r.header("access-control-allow-origin").isEmpty(), path + ": CORS is off unless configured");
        }
        Reply crossSite = http.post("/api/start?duration=1m", "Origin", "http://evil.example");
        expectError(crossSite, 403, null);
        assertEquals("idle", json(http.get("/api/status")).get("state").asText(), "a cross-site page cannot start a capture");
    }

    @Test
    void rebindingAndGarbageAndOversizedHeadersAreRefused() throws IOException {
        // DNS rebinding: the attacker's page has no credential for its own origin.
        String rebound = http.raw("GET /api/status HTTP/1.1\r\nHost: attacker.example:80\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                Duration.ofSeconds(20));
        assertTrue(rebound.startsWith("HTTP/1.1 401"), rebound);

        String garbage = http.raw(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03, '\r', '\n', '\r', '\n'},
                Duration.ofSeconds(20));
        assertTrue(garbage.isEmpty() || garbage.startsWith("HTTP/1.1 400"), garbage);

        String bigHeader = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n";
        String refused = http.raw(bigHeader.getBytes(StandardCharsets.US_ASCII), Duration.ofSeconds(20));
        assertTrue(refused.startsWith("HTTP/1.1 431"), refused);

        String longLine = "GET /api/status?" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        String refusedLine = http.raw(longLine.getBytes(StandardCharsets.US_ASCII), Duration.ofSeconds(20));
        assertTrue(refusedLine.startsWith("HTTP/1.1 414"), refusedLine);
        assertEquals(200, http.get("/api/status").status(), "the server carries on");
    }

    @Test
    void silentAndSlowClientsAreCutOffAndTheTargetCarriesOn() throws Exception {
        String before = Threads.threadNames(target.pid());
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
            List<Future<Long>> cutOff = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                cutOff.add(clients.submit(() -> secondsUntilClosed(new byte[0], 0)));                    // says nothing
                cutOff.add(clients.submit(() -> secondsUntilClosed("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        .getBytes(StandardCharsets.US_ASCII), 300)));                                    // a byte every 300 ms
            }
            for (Future<Long> f : cutOff) {
                long seconds = f.get();
                assertTrue(seconds <= 5, "cut off after " + seconds + " s: a connection that has not shown the token has 1 s");
            }
            // A connection that has shown the token keeps its slot while idle for the ordinary deadline.
            String authorized = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + http.token() + "\r\n\r\n";
            long idle = secondsUntilClosedAfterAnswer(authorized.getBytes(StandardCharsets.US_ASCII));
            assertTrue(idle >= 9 && idle <= 20, "an idle keep-alive connection cut off after " + idle + " s, the deadline is 10 s");
        } finally {
            clients.shutdownNow();
        }
        assertTrue(target.isAlive());
        assertEquals(200, http.get("/api/status").status());
        assertEquals(threadCount(before, "allocator"), threadCount(Threads.threadNames(target.pid()), "allocator"),
                "the application's threads are untouched");
        assertTrue(threadCount(Threads.threadNames(target.pid()), "heaptap-http-worker") <= 2, "the worker pool stays bounded");
    }

    /**
     * Opens a connection, trickles {@code bytes} one per {@code gapMillis} (the read timeout paces
     * it), and returns after how many seconds the server closed the connection.
     */
    long secondsUntilClosed(byte[] bytes, int gapMillis) throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket(http.uri().getHost(), http.uri().getPort())) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            socket.setSoTimeout(gapMillis == 0 ? 60_000 : gapMillis);
            int next = 0;
            while (true) {
                try {
                    if (in.read() < 0) {
                        break;                      // closed
                    }
                    in.readAllBytes();              // the 408, then the close
                    break;
                } catch (SocketTimeoutException quiet) {
                    if (next < bytes.length) {
                        out.write(bytes[next++]);
                        out.flush();
                    }
                }
            }
        }
        return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    }

    /** Sends a whole request, reads its answer, then stays silent: seconds from the answer until the server closes. */
    long secondsUntilClosedAfterAnswer(byte[] request) throws IOException {
        try (Socket socket = new Socket(http.uri().getHost(), http.uri().getPort())) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            assertTrue(in.read() >= 0, "an answer");
            long start = System.nanoTime();
            in.readAllBytes();  // the rest of the answer, then the close
            return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        }
    }

    @Test
    void concurrentPollersWhileCapturingNeverFailNorDeadlockWithJmx() throws Exception {
        assertEquals(200, http.post("/api/start?duration=2m&interval=64k").status());
        Wait.until("samples", Duration.ofSeconds(30), () -> json(http.get("/api/status")).get("samples").asLong() > 0);
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try (JMXConnector jmx = Jmx.local(target.pid())) {
            MBeanServerConnection s = jmx.getMBeanServerConnection();
            List<Callable<Integer>> work = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String path = i % 2 == 0 ? "/api/status" : "/debug/pprof/allocs";
                work.add(() -> {
                    int ok = 0;
                    for (int n = 0; n < 25; n++) {
                        Reply r = http.get(path);
                        if (r.status() == 200 || r.status() == 503) {  // 503 = busy, said plainly; never a hang or a 500
                            ok++;
                        } else {
                            throw new AssertionError(path + ": " + r);
                        }
                    }
                    return ok;
                });
            }
            for (int i = 0; i < 2; i++) {
                work.add(() -> {
                    for (int n = 0; n < 50; n++) {
                        s.getAttribute(Jmx.NAME, "EstimatedAllocatedBytes");
                        s.invoke(Jmx.NAME, "topAllocations", new Object[] {5}, new String[] {"int"});
                    }
                    return 50;
                });
            }
            for (Future<Integer> f : pool.invokeAll(work, 3, TimeUnit.MINUTES)) {
                assertFalse(f.isCancelled(), "a poller hung: deadlock or starvation");
                assertTrue(f.get() > 0);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals("recording", json(http.get("/api/status")).get("state").asText());
        // All that serving allocated a lot, on heaptap's threads: none of it is the application's.
        JsonNode profile = json(http.get("/api/dump?format=json"));
        for (JsonNode site : profile.get("sites")) {
            assertFalse(site.get("type").asText().startsWith("io.heaptap."), "heaptap's own allocation in the profile: " + site);
            for (JsonNode frame : site.get("stack")) {
                String f = frame.toString();
                boolean heaptaps = f.contains("io.heaptap.") && !f.contains("io.heaptap.it.");  // the workload is the application
                assertFalse(f.contains("io.netty.") || heaptaps, "heaptap's own allocation in the profile: " + site);
            }
        }
    }

    @Test
    void serveTwiceStopAndPortInUse() throws Exception {
        try (TargetJvm other = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(other.pid());
            try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                Result busy = HeaptapCli.run("serve", pid, "--port", Integer.toString(taken.getLocalPort()));
                assertEquals(5, busy.exitCode(), busy.toString());
                assertTrue(busy.stderr().contains("already in use"), busy.stderr());
                assertFalse(busy.stderr().contains("\tat "), "no stack trace");
            }
            assertTrue(HeaptapCli.run("status", pid).out().contains("http:         not serving"), "nothing half-started");
            // Loading heaptap (as status just did) starts no server thread either.
            assertEquals(0, threadCount(Threads.threadNames(other.pid()), "heaptap-http"), "no server thread left behind");

            Http served = HttpEndpoint.serve(other.pid());
            String url = served.uri().toString();
            Result twice = HeaptapCli.run("serve", pid);
            assertEquals(0, twice.exitCode());
            assertTrue(twice.out().contains("already serving at " + url), twice.out());
            assertTrue(twice.out().contains("Authorization: Bearer $(cat "), "again, where the token is: " + twice.out());
            assertEquals(200, served.get("/api/status").status());
            Path tokenFile = Path.of(System.getProperty("java.io.tmpdir"), "heaptap-" + pid, ".http-token");
            assertTrue(Files.exists(tokenFile), tokenFile.toString());

            Result stop = HeaptapCli.run("serve", pid, "--stop");
            assertTrue(stop.out().contains("stopped serving"), stop.out());
            assertTrue(HeaptapCli.run("status", pid).out().contains("http:         not serving"));
            Wait.until("server threads to end", Duration.ofSeconds(30),
                    () -> threadCount(uncheckedThreadNames(other.pid()), "heaptap-http") == 0);
            assertFalse(Files.exists(tokenFile), "the token of a stopped server is deleted");

            // Stopped by one of its own requests (Jolokia's exec, as hawtio sends it): the answer comes first.
            Http again = HttpEndpoint.serve(other.pid());
            Reply stopping = again.post("/jolokia/", "{\"type\":\"exec\",\"mbean\":\"io.heaptap:type=Heaptap\",\"operation\":\"stopServing\"}"
                    .getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
            assertEquals(200, stopping.status(), stopping.toString());
            assertEquals(200, json(stopping).get("status").asInt(), stopping.toString());
            assertTrue(json(stopping).get("value").asBoolean(), "it was serving: " + stopping);
            assertTrue(HeaptapCli.run("status", pid).out().contains("http:         not serving"));
            Wait.until("server threads to end", Duration.ofSeconds(30),
                    () -> threadCount(uncheckedThreadNames(other.pid()), "heaptap-http") == 0);
            assertFalse(Files.exists(tokenFile), "the token of a server stopped over HTTP is deleted");
            assertEquals(200, HttpEndpoint.serve(other.pid()).get("/api/status").status(), "it serves again");
        }
    }

    static String uncheckedThreadNames(long pid) {
        try {
            return Threads.threadNames(pid);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

}
