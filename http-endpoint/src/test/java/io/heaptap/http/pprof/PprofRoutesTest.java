package io.heaptap.http.pprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.FakeSession;
import io.heaptap.session.SessionState;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pprof routes' decisions against a session over a fake sampler: what each request may do, the
 * status it gets, and what it leaves in the session. Over a real socket, with go tool pprof and a
 * real browser, PprofEndpointIT and HttpSecurityIT check the same doors end to end.
 */
class PprofRoutesTest {
    @TempDir
    Path tmp;
    private FakeSession session;
    private ScheduledExecutorService timer;
    private Router router;

    @BeforeEach
    void routes() {
        session = new FakeSession(tmp.resolve("dumps"));
        timer = Executors.newSingleThreadScheduledExecutor();
        router = new Router();
        new PprofRoutes(session.controller(), timer, Runnable::run).addTo(router);
    }

    @AfterEach
    void close() {
        timer.shutdownNow();
        session.close();
    }

    private static Request get(String path, Map<String, String> query, boolean unforgeable) {
        Map<String, List<String>> q = new LinkedHashMap<>();
        query.forEach((k, v) -> q.put(k, List.of(v)));
        return new Request("GET", path, path, q, Map.of(), new byte[0], "127.0.0.1:40000", unforgeable);
    }

    private Response answer(Request request) throws Exception {
        return router.route(request.method(), request.path()).handle(request).get(10, TimeUnit.SECONDS);
    }

    private HttpError refusal(Request request) {
        return assertThrows(HttpError.class, () -> answer(request));
    }

    @Test
    void anIdleJvmWithoutContinuousSamplingHasNothingToServe() {
        HttpError e = refusal(get("/debug/pprof/allocs", Map.of(), true));
        assertEquals(409, e.status());
        assertTrue(e.getMessage().contains("serve --continuous"), e.getMessage());
    }

    @Test
    void aForgeableRequestCannotForceACollection() {
        session.controller().startContinuous(null, "test");
        HttpError e = refusal(get("/debug/pprof/heap", Map.of("gc", "1"), false));
        assertEquals(403, e.status());
        assertEquals(0, session.forcedGcs(), "no collection forced");
    }

    @Test
    void anUnforgeableRequestForcesOneCollectionAndGetsTheProfile() throws Exception {
        session.controller().startContinuous(null, "test");
        Response r = answer(get("/debug/pprof/heap", Map.of("gc", "1"), true));
        assertEquals(200, r.status());
        assertEquals(1, session.forcedGcs());
    }

    @Test
    void aForgeableRequestCannotStartACaptureOnAnIdleJvm() {
        HttpError e = refusal(get("/debug/pprof/allocs", Map.of("seconds", "5"), false));
        assertEquals(403, e.status());
        assertEquals(0, session.starts(), "nothing started");
        assertEquals(SessionState.IDLE, session.controller().status().state());
    }

    @Test
    void aWindowLongerThanTheRunningCaptureIsRefusedWithRetryAfter() {
        session.controller().start(new CaptureOptions(Duration.ofSeconds(20), 64 * 1024, CaptureOptions.DEFAULT_DEPTH,
                CaptureOptions.DEFAULT_MAX_STACKS, true, CaptureOptions.DEFAULT_LIVE_BUDGET), "someone");
        HttpError e = refusal(get("/debug/pprof/allocs", Map.of("seconds", "60"), true));
        assertEquals(409, e.status());
        long retry = Long.parseLong(e.headers().get("Retry-After"));
        assertTrue(retry >= 1 && retry <= 20, "Retry-After " + retry);
        assertEquals(SessionState.RECORDING, session.controller().status().state(), "the running capture is left alone");
    }

    @Test
    void continuousSamplingIsServedAsPprofAndAsText() throws Exception {
        session.controller().startContinuous(null, "test");
        Response pprof = answer(get("/debug/pprof/allocs", Map.of(), false));
        assertEquals(200, pprof.status());
        assertTrue(pprof.body().length > 0);
        assertEquals(0x1f, pprof.body()[0] & 0xff, "gzip, as go tool pprof expects");
        Response text = answer(get("/debug/pprof/allocs", Map.of("debug", "1"), false));
        assertEquals(200, text.status());
        assertTrue(text.contentType().startsWith("text/plain"), text.contentType());
        assertTrue(new String(text.body(), StandardCharsets.UTF_8).contains("alloc"), "a text profile");
    }

    @Test
    void anUnknownParameterIsRefusedByName() {
        HttpError e = refusal(get("/debug/pprof/allocs", Map.of("secs", "5"), true));
        assertEquals(400, e.status());
        assertTrue(e.getMessage().contains("secs"), e.getMessage());
    }
}
