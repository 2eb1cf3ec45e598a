package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.workload.Allocator;
import io.heaptap.it.workload.LockedDownApp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import javax.management.remote.JMXConnector;

import org.jolokia.client.JolokiaClient;
import org.jolokia.client.JolokiaClientBuilder;
import org.jolokia.client.request.JolokiaReadRequest;
import org.jolokia.client.spi.HttpHeader;
import org.junit.jupiter.api.Test;

/** The token, start-up serving (-javaagent:heaptap.jar=serve,...), and a 503 when nothing can be sampled. */
class HttpSecurityIT {
    static final String TOKEN = "s3cret-token-0123456789abcdef";
    static final List<String> ROUTES = List.of("/", "/assets/app.js", "/api/status", "/api/top", "/api/dump", "/api/flamegraph",
            "/debug/pprof/allocs", "/debug/pprof/heap", "/jolokia/version", "/jolokia/read/java.lang:type=Memory", "/no/such/route");

    static Path tokenFile(String name, String token, String mode) throws Exception {
        Path f = Paths.workDir("http-security").resolve(name);
        Files.writeString(f, token + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void everyRouteRefusesAMissingOrWrongToken() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            Result readable = HeaptapCli.run("serve", pid, "--token-file", tokenFile("open.token", TOKEN, "rw-r--r--").toString());
            assertEquals(2, readable.exitCode(), readable.toString());
            assertTrue(readable.stderr().contains("chmod 600"), readable.stderr());
            Result shortToken = HeaptapCli.run("serve", pid, "--token-file", tokenFile("short.token", "abc", "rw-------").toString());
            assertEquals(2, shortToken.exitCode(), shortToken.toString());

            Http right = HttpEndpoint.serve(target.pid(), "--token-file", tokenFile("good.token", TOKEN, "rw-------").toString());
            assertEquals(TOKEN, right.token(), "serve points to the token file it was given");
            String url = right.uri().toString();
            Http none = new Http(url);
            Http wrong = new Http(url, TOKEN.substring(0, TOKEN.length() - 1) + "X");
            for (String route : ROUTES) {
                for (Http refused : List.of(none, wrong)) {
                    Reply r = refused.get(route);
                    assertEquals(401, r.status(), route + ": " + r);
                    assertTrue(r.header("www-authenticate").orElse("").startsWith("Bearer"), route);
                }
                assertEquals(401, none.post("/api/start?duration=1m").status());
                assertEquals(401, none.post("/jolokia/", "{\"type\":\"version\"}".getBytes(), "Content-Type", "application/json").status());
            }
            assertEquals("idle", HttpEndpoint.json(right.get("/api/status")).get("state").asText(), "refused requests changed nothing");
            assertEquals(200, right.post("/api/start?duration=1m").status());
            assertEquals(200, right.get("/").status());

            try (JolokiaClient jolokia = new JolokiaClientBuilder().url(url + "jolokia")
                    .setDefaultHttpHeaders(List.of(new HttpHeader("Authorization", "Bearer " + TOKEN))).build()) {
                Object state = jolokia.execute(new JolokiaReadRequest("io.heaptap:type=Heaptap", "State")).getValue();
                assertEquals("recording", state);
            }
        }
    }

    @Test
    void startUpServingAndNoNativeAgentMeans503() throws Exception {
        // -javaagent with serve: the endpoint is up before main() runs. java.io.tmpdir points
        // nowhere, so libheaptap.so cannot be extracted and nothing can be sampled (nor a token
        // written there: the token is given).
        List<String> jvm = List.of("-javaagent:" + Paths.heaptapJar() + "=serve,port=0,token-file="
                        + tokenFile("startup.token", TOKEN, "rw-------"),
                "-Djava.io.tmpdir=" + Paths.workDir("http-security").resolve("no-such-dir"));
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Allocator.class, jvm)) {
            String url;
            try (JMXConnector c = Jmx.local(target.pid())) {
                url = (String) c.getMBeanServerConnection().getAttribute(Jmx.NAME, "HttpUrl");
            }
            assertTrue(url.startsWith("http://127.0.0.1:"), url);
            Http http = new Http(url, TOKEN);
            assertEquals("idle", HttpEndpoint.json(http.get("/api/status")).get("state").asText(), "serving does not start a capture");
            assertFalse(HttpEndpoint.json(http.get("/api/status")).get("nativeAgentError").isNull());
            HttpEndpoint.expectError(http.post("/api/start?duration=1m"), 503, null);
            HttpEndpoint.expectError(http.get("/debug/pprof/allocs?seconds=1"), 503, null);
            assertFalse(target.stderr().contains("heaptap"), "nothing printed by heaptap: " + target.stderr());
        }
    }

    /**
     * A JVM whose MBeanServer refuses heaptap's MBean: JMX commands say so clearly and point to
     * serve; serve goes through the agent's arguments instead, and sampling works over HTTP.
     */
    @Test
    void aJvmRefusingTheMBeanIsStillServedAndSampled() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), LockedDownApp.class)) {
            String pid = Long.toString(target.pid());
            Result status = HeaptapCli.run("status", pid);
            assertEquals(4, status.exitCode(), status.toString());
            assertTrue(status.stderr().contains("refuses MBeans of domain io.heaptap"), status.stderr());
            assertTrue(status.stderr().contains("heaptap serve " + pid), "points to the door that is open: " + status.stderr());
            assertFalse(status.stderr().contains("\tat "), "no stack trace");

            Http http = HttpEndpoint.serve(target.pid());
            String url = http.uri().toString();
            assertEquals(200, http.post("/api/start?duration=1m&interval=64k").status());
            Wait.until("samples", Duration.ofSeconds(30), () -> HttpEndpoint.json(http.get("/api/status")).get("samples").asLong() > 0);
            Reply dump = http.get("/api/dump?format=json");
            assertEquals(200, dump.status(), dump.toString());
            assertTrue(HttpEndpoint.json(dump).get("capture").get("samples").asLong() > 0);
            Result again = HeaptapCli.run("serve", pid);
            assertTrue(again.out().contains("serving at " + url), "serve again finds the running server: " + again);
        }
    }

    @Test
    void badStartUpArgumentsSayWhyAndTheApplicationRunsAnyway() throws Exception {
        List<String> jvm = List.of("-javaagent:" + Paths.heaptapJar() + "=serve,port=70000");
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class, jvm)) {
            Wait.until("the refusal on stderr", Duration.ofSeconds(30),
                    () -> target.stderr().contains("heaptap: not serving: port must be between 0"));
            assertTrue(target.isAlive(), "the application runs anyway");
            assertFalse(target.stderr().contains("\tat "), "no stack trace");
            Result status = HeaptapCli.run("status", Long.toString(target.pid()));
            assertTrue(status.out().contains("state:        idle"), "heaptap itself is loaded and usable: " + status);
        }
    }
}
