package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Chromium;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.workload.Allocator;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The access model (issue #15): nobody gets more through heaptap's endpoint than the Attach API
 * gives them. Another OS user is refused on every route; the token file is the target user's and
 * root's alone; a web page cannot use a signed-in browser to change anything; the endpoint shows no
 * system property or JVM argument to anyone. One target (with a secret on its command line) serves
 * every check.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpAccessIT {
    static final String SECRET = "hunter2-from-the-command-line";
    static final List<String> GET_ROUTES = List.of("/", "/assets/app.js", "/assets/d3.js", "/api/status", "/api/top", "/api/dump",
            "/api/flamegraph", "/api/leaks", "/debug/pprof/", "/debug/pprof/allocs", "/debug/pprof/heap?gc=1",
            "/debug/pprof/allocs?seconds=1", "/jolokia/version", "/jolokia/read/java.lang:type=Runtime/InputArguments",
            "/jolokia/read/java.lang:type=Runtime/SystemProperties", "/jolokia/list", "/no/such/route");
    static final List<String> POST_ROUTES = List.of("/api/start?duration=24h&interval=4k", "/api/stop", "/api/reset",
            "/api/leaks/start", "/api/leaks/stop", "/jolokia/", "/no/such/route");

    TargetJvm target;
    Http http;
    Path tokenFile;

    @BeforeAll
    void serve() throws IOException {
        target = TargetJvm.start(Jdk.current(), Allocator.class, List.of("-Ddb.password=" + SECRET));
        http = HttpEndpoint.serve(target.pid());
        tokenFile = Path.of(System.getProperty("java.io.tmpdir"), "heaptap-" + target.pid(), ".http-token");
    }

    @AfterAll
    void close() throws InterruptedException {
        target.close();
    }

    @Test
    void anotherUserIsRefusedOnEveryRouteAndCannotReadTheToken() throws Exception {
        assertEquals("root", System.getProperty("user.name"),
                "this test runs heaptap's client as user nobody through runuser, which needs root (CI runs the tests as root)");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile.getParent())));
        assertNotEquals(0, asNobody("cat", tokenFile.toString()).exitCode, "nobody cannot read the token");

        String base = http.uri().toString().replaceAll("/$", "");
        List<String> seen = new ArrayList<>();
        for (String route : GET_ROUTES) {
            for (List<String> auth : List.of(List.<String>of(), List.of("-H", "Authorization: Bearer " + "0".repeat(64)),
                    List.of("-u", "nobody:guess"))) {
                Run r = curlAsNobody(auth, "-X", "GET", base + route);
                assertEquals("401", r.status, "GET " + route + " " + auth + ": " + r.body);
                seen.add(r.body);
            }
        }
        for (String route : POST_ROUTES) {
            Run r = curlAsNobody(List.of("-H", "Content-Type: application/json", "-d", "{\"type\":\"exec\",\"mbean\":"
                    + "\"io.heaptap:type=Heaptap\",\"operation\":\"reset\"}"), "-X", "POST", base + route);
            assertEquals("401", r.status, "POST " + route + ": " + r.body);
            seen.add(r.body);
        }
        assertTrue(seen.stream().noneMatch(b -> b.contains(SECRET)), "no secret in any refusal");
        assertEquals("idle", HttpEndpoint.json(http.get("/api/status")).get("state").asText(), "nobody changed nothing");
        assertTrue(target.isAlive());
    }

    @Test
    void noSystemPropertyOrJvmArgumentIsReadableEvenWithTheToken() {
        List<Reply> replies = new ArrayList<>();
        for (String path : List.of("/jolokia/read/java.lang:type=Runtime/InputArguments", "/jolokia/read/java.lang:type=Runtime/SystemProperties",
                "/jolokia/read/java.lang:type=Runtime", "/jolokia/read/java.lang:*", "/jolokia/read/*:*",
                "/jolokia/read/com.sun.management:type=HotSpotDiagnostic/DiagnosticOptions",
                "/jolokia/read/JMImplementation:type=MBeanServerDelegate/MBeanServerId")) {
            Reply r = http.get(path);
            replies.add(r);
            assertEquals(403, HttpEndpoint.json(r).get("status").asInt(), path + ": " + r);
        }
        Reply diagnostic = http.post("/jolokia/", ("{\"type\":\"exec\",\"mbean\":\"com.sun.management:type=DiagnosticCommand\","
                + "\"operation\":\"vmSystemProperties\"}").getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
        replies.add(diagnostic);
        assertEquals(403, HttpEndpoint.json(diagnostic).get("status").asInt(), diagnostic.toString());
        Reply search = http.get("/jolokia/search/*:*");
        replies.add(search);
        assertFalse(search.text().contains("DiagnosticCommand") || search.text().contains("HotSpotDiagnostic"), search.text());
        assertTrue(search.text().contains("io.heaptap:type=Heaptap"), search.text());
        replies.add(http.get("/jolokia/list"));
        Reply uptime = http.get("/jolokia/read/java.lang:type=Runtime/Uptime,VmName");
        assertEquals(200, HttpEndpoint.json(uptime).get("status").asInt(), "what identifies the JVM stays readable: " + uptime);
        Reply pools = http.get("/jolokia/read/java.lang:type=MemoryPool,*/Usage");
        assertEquals(200, HttpEndpoint.json(pools).get("status").asInt(), "memory MBeans stay readable by pattern: " + pools);
        for (Reply r : replies) {
            assertFalse(r.text().contains(SECRET) || r.text().contains("java.class.path"), r.toString());
        }
    }

    @Test
    void stateChangesNeedARequestAPageCannotForge() throws Exception {
        String basic = "Basic " + Base64.getEncoder().encodeToString(("me:" + http.token()).getBytes(StandardCharsets.UTF_8));
        Http browser = new Http(http.uri().toString());
        // Jolokia exec and write through GET: refused whoever sends them (an <img> can send a GET).
        Reply getExec = http.get("/jolokia/exec/io.heaptap:type=Heaptap/start(java.lang.String,java.lang.String,java.lang.String)/24h/4k/default");
        assertEquals(405, getExec.status(), getExec.toString());
        assertEquals(405, http.get("/jolokia/?p=/exec/io.heaptap:type=Heaptap/reset()").status(), "the ?p= form too");
        assertEquals(405, http.get("/jolokia/exec/io.heaptap:type=Heaptap/stopServing()").status());
        assertEquals(405, http.get("/jolokia/exec/io.heaptap:type=Heaptap/referencePaths/x/1/1/1/1s").status());
        // With a browser's saved password (Basic): a simple POST (what a form sends) is refused,
        // starting a capture or forcing a GC through a GET too; reading and a JSON POST work.
        assertEquals(403, browser.post("/api/start?duration=1m", "Authorization", basic, "Content-Type", "text/plain").status());
        assertEquals(403, browser.post("/api/reset", "Authorization", basic).status());
        assertEquals(403, browser.post("/jolokia/", "{\"type\":\"exec\",\"mbean\":\"io.heaptap:type=Heaptap\",\"operation\":\"reset\"}"
                .getBytes(StandardCharsets.UTF_8), "Authorization", basic, "Content-Type", "text/plain").status());
        // A browser names itself Mozilla/ (a page cannot change that), and a current one adds Sec-Fetch-*.
        String agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36";
        assertEquals(403, browser.get("/debug/pprof/allocs?seconds=1", "Authorization", basic, "User-Agent", agent).status());
        assertEquals(403, browser.get("/debug/pprof/heap?gc=1", "Authorization", basic, "User-Agent", agent).status());
        assertEquals(403, browser.get("/debug/pprof/allocs?seconds=1", "Authorization", basic, "User-Agent", agent,
                "Sec-Fetch-Site", "none", "Sec-Fetch-Mode", "navigate").status(), "typed into the address bar");
        assertEquals(403, browser.get("/debug/pprof/allocs?seconds=1", "Authorization", basic, "Sec-Fetch-Mode", "no-cors").status());
        assertEquals("idle", HttpEndpoint.json(browser.get("/api/status", "Authorization", basic)).get("state").asText(), "nothing changed");
        // A cross-site request (what the browser marks as such) is refused, reads included.
        assertEquals(403, browser.get("/api/status", "Authorization", basic, "Sec-Fetch-Site", "cross-site").status());
        // Two Origin headers: both are checked, so two are refused outright; so are two Hosts, and none on HTTP/1.1.
        String twoOrigins = http.raw(("POST /api/start?duration=1m HTTP/1.1\r\nHost: " + hostPort() + "\r\nAuthorization: Bearer "
                + http.token() + "\r\nOrigin: http://" + hostPort() + "\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\n"
                + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII), Duration.ofSeconds(20));
        assertTrue(twoOrigins.startsWith("HTTP/1.1 400"), twoOrigins);
        String noHost = http.raw(("GET /api/status HTTP/1.1\r\nAuthorization: Bearer " + http.token() + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII), Duration.ofSeconds(20));
        assertTrue(noHost.startsWith("HTTP/1.1 400") && noHost.contains("Host"), noHost);
        String twoHosts = http.raw(("GET /api/status HTTP/1.1\r\nHost: " + hostPort() + "\r\nHost: evil.example\r\nAuthorization: Bearer "
                + http.token() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII), Duration.ofSeconds(20));
        assertTrue(twoHosts.startsWith("HTTP/1.1 400"), twoHosts);
        assertEquals("idle", HttpEndpoint.json(http.get("/api/status")).get("state").asText(), "nothing changed");

        Reply json = browser.post("/api/start?duration=1m", "Authorization", basic, "Content-Type", "application/json");
        assertEquals(200, json.status(), "the web page's own way works: " + json);
        assertEquals(200, http.post("/api/reset").status(), "and a program's bearer token");
    }

    /**
     * A real page elsewhere, in a real browser signed in to heaptap (its saved password is sent with
     * any request to heaptap's origin), tries every forgery of issue #15: images that exec, start,
     * reset and stop serving through GET, a form that posts, a no-cors fetch. Nothing changes.
     */
    @Test
    void aPageElsewhereCannotUseASignedInBrowser() throws Exception {
        assertTrue(Files.isExecutable(Chromium.CHROMIUM) && Files.isExecutable(Chromium.CHROMEDRIVER),
                "install chromium and chromium-driver (./test does): this test needs a real browser");
        String heaptap = http.uri().toString();
        String jolokia = heaptap + "jolokia/exec/io.heaptap:type=Heaptap/";
        String page = "<!DOCTYPE html><html><body><form id=f method=POST action='" + heaptap + "api/start?duration=24h&interval=4k'"
                + " enctype=text/plain target=sink><input name=a value=b></form><iframe name=sink></iframe>"
                + img(jolokia + "start(java.lang.String,java.lang.String,java.lang.String,int,int,java.lang.String,int,java.lang.String,java.lang.String)/24h/4k/default/64/65536/true/65536/default/evil-page")
                + img(jolokia + "start(java.lang.String,java.lang.String,java.lang.String)/24h/4k/default")
                + img(jolokia + "stopServing()") + img(heaptap + "api/start?duration=24h")
                + img(heaptap + "debug/pprof/allocs?seconds=600") + img(heaptap + "debug/pprof/heap?gc=1")
                // When every image has had its answer: the form's POST (its answer loads into the iframe),
                // then a no-cors fetch; then the page says it is done.
                + "<script>let left = 6; function one() { if (--left === 0) {"
                + " document.querySelector('iframe').onload = () => fetch('" + heaptap + "api/start?duration=24h',"
                + " {method: 'POST', mode: 'no-cors', credentials: 'include', body: 'x'})"
                + ".finally(() => document.body.dataset.done = '1');"
                + " document.getElementById('f').submit(); } }"
                + " document.querySelectorAll('img').forEach(i => { if (i.complete) one(); else { i.onload = one; i.onerror = one; } });"
                + "</script></body></html>";
        HttpServer evil = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        evil.createContext("/", exchange -> {
            byte[] body = page.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        evil.start();
        WebDriver browser = Chromium.chromium(Paths.workDir("forged-page"));
        try {
            browser.get(http.browserUrl());   // signed in: the browser now holds heaptap's password
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
            wait.until(b -> "idle".equals(b.findElement(org.openqa.selenium.By.id("status")).getAttribute("data-state")));
            int port = evil.getAddress().getPort();
            // Another site (localhost is not 127.0.0.1), then another origin of the same site.
            for (String evilUrl : List.of("http://localhost:" + port + "/", "http://127.0.0.1:" + port + "/")) {
                browser.get(evilUrl);
                wait.until(b -> "1".equals(b.findElement(org.openqa.selenium.By.tagName("body")).getAttribute("data-done")));
                JsonNode status = HttpEndpoint.json(http.get("/api/status"));
                assertEquals("idle", status.get("state").asText(), evilUrl + " changed heaptap: " + status);
                assertEquals(200, http.get("/api/status").status(), "still serving after " + evilUrl);
            }
        } finally {
            browser.quit();
            evil.stop(0);
        }
    }

    private static String img(String src) {
        return "<img src=\"" + src.replace("\"", "%22") + "\">";
    }

    private String hostPort() {
        return http.uri().getHost() + ":" + http.uri().getPort();
    }

    record Run(int exitCode, String status, String body) {
    }

    /** curl run as user nobody: its exit code, the HTTP status it got, the body. */
    private static Run curlAsNobody(List<String> auth, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("curl", "-s", "-m", "30", "-w", "\n%{http_code}"));
        cmd.addAll(auth);
        cmd.addAll(List.of(args));
        Run r = asNobody(cmd.toArray(String[]::new));
        int nl = r.body.lastIndexOf('\n');
        return new Run(r.exitCode, r.body.substring(nl + 1).strip(), r.body.substring(0, Math.max(0, nl)));
    }

    private static Run asNobody(String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "nobody", "--"));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "runuser " + cmd + " did not finish");
        return new Run(p.exitValue(), "", out);
    }

    @Test
    void theCliAsAnotherUserIsRefusedAsTheAttachApiRefusesIt() {
        HeaptapCli.Result r = HeaptapCli.runAs("nobody", "serve", Long.toString(target.pid()));
        assertEquals(4, r.exitCode(), r.toString());
        assertFalse(r.out().contains("serving at"), r.toString());
    }
}
