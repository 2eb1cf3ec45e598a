package io.heaptap.it.http;

import static io.heaptap.it.support.PprofTypes.GO_HEAP_TYPES;
import static io.heaptap.it.support.PprofTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.perftools.profiles.ProfileProto.Profile;

import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.workload.Allocator;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@code /debug/pprof/allocs} and {@code /debug/pprof/heap} fetched the way Pyroscope, Alloy and
 * Parca scrape a Go service, decoded with pprof's official profile.proto classes.
 */
class PprofEndpointIT {
    @Test
    void scrapedLikeAGoService() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Allocator.class)) {
            Http http = HttpEndpoint.serve(target.pid());

            // Idle target, ?seconds=N: a capture of exactly N seconds is started for the scrape.
            Reply window = http.get("/debug/pprof/allocs?seconds=2", "Accept-Encoding", "gzip");
            assertEquals(200, window.status(), window.toString());
            assertEquals("application/octet-stream", window.header("content-type").orElseThrow());
            assertEquals(0x1f, window.body()[0] & 0xff, "gzipped like Go's");
            Profile scraped = Profiles.pprof(window.body());
            assertEquals(GO_HEAP_TYPES, types(scraped));
            assertEquals("alloc_space", scraped.getStringTable((int) scraped.getDefaultSampleType()));
            double seconds = scraped.getDurationNanos() / 1e9;
            // Up to 2 s late: the target's timer ends the box, and on a loaded machine it may run late.
            assertTrue(seconds >= 1.9 && seconds <= 4, "the window is the 2 s asked for: " + seconds);
            assertTrue(functions(scraped).stream().anyMatch(f -> f.contains("allocateBuffer")), "the workload's hot frame");
            assertTrue(HttpEndpoint.json(http.get("/api/status")).get("startedBy").asText().startsWith("pprof scrape from 127.0.0.1"));

            // A window the running capture would not cover is refused, not silently shortened (issue #15).
            assertEquals(200, http.post("/api/start?duration=5s").status());
            Reply overlapping = http.get("/debug/pprof/allocs?seconds=30");
            HttpEndpoint.expectError(overlapping, 409, null);
            assertTrue(overlapping.header("retry-after").isPresent(), overlapping.toString());
            assertEquals(200, http.post("/api/stop").status());

            // A scraper that goes away takes its window with it: the capture stops, nobody is blocked (issue #15).
            try (Socket scraper = new Socket(http.uri().getHost(), http.uri().getPort())) {
                scraper.getOutputStream().write(("GET /debug/pprof/allocs?seconds=600 HTTP/1.1\r\nHost: " + http.uri().getHost() + ":"
                        + http.uri().getPort() + "\r\nAuthorization: Bearer " + http.token() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                scraper.getOutputStream().flush();
                Wait.until("the scrape's capture", Duration.ofSeconds(30), () -> "recording".equals(state(http))
                        && HttpEndpoint.json(http.get("/api/status")).get("startedBy").asText().startsWith("pprof scrape"));
            }
            Wait.until("the abandoned scrape's capture to stop", Duration.ofSeconds(30), () -> "stopped".equals(state(http)));

            // A running capture, ?seconds=N: the delta of N seconds, much less than the whole capture.
            assertEquals(200, http.post("/api/start?duration=5m").status());
            Wait.until("a few seconds of samples", Duration.ofSeconds(60),
                    () -> Profiles.pprof(http.get("/debug/pprof/allocs").body()).getDurationNanos() > 6_000_000_000L);
            // The delta's window lies between two cumulative fetches, so it holds at most their difference.
            Profile first = Profiles.pprof(http.get("/debug/pprof/allocs").body());
            Profile d = Profiles.pprof(http.get("/debug/pprof/allocs?seconds=1").body());
            Profile last = Profiles.pprof(http.get("/debug/pprof/allocs").body());
            double deltaSeconds = d.getDurationNanos() / 1e9;
            assertTrue(deltaSeconds >= 0.95 && deltaSeconds < 3, "delta window " + deltaSeconds + " s, the capture is over 6 s old");
            long deltaBytes = total(d, 1);
            long between = total(last, 1) - total(first, 1);
            assertTrue(deltaBytes > 0 && deltaBytes <= between, "delta " + deltaBytes + " within " + between);
            assertTrue(deltaBytes < total(last, 1), "a delta, not the whole capture");

            // heap: the same four types, in-use space by default; ?gc=1 collects first.
            Reply heap = http.get("/debug/pprof/heap?gc=1");
            assertEquals(200, heap.status(), heap.toString());
            Profile h = Profiles.pprof(heap.body());
            assertEquals(GO_HEAP_TYPES, types(h));
            assertEquals("inuse_space", h.getStringTable((int) h.getDefaultSampleType()));
            assertTrue(h.getLocationList().stream().allMatch(l -> l.getAddress() != 0), "non-zero addresses (Alloy keys stacks by address)");

            HttpEndpoint.expectError(http.get("/debug/pprof/allocs?seconds=0"), 400, "seconds");
            HttpEndpoint.expectError(http.get("/debug/pprof/allocs?gc=1"), 400, "gc");
            HttpEndpoint.expectError(http.get("/debug/pprof/profile"), 404, null);
        }
    }

    static String state(Http http) {
        return HttpEndpoint.json(http.get("/api/status")).get("state").asText();
    }

    static List<String> functions(Profile p) {
        return p.getFunctionList().stream().map(f -> p.getStringTable((int) f.getName())).toList();
    }

    /**
     * go tool pprof by URL, as with a Go service: it has no header option and sends the URL's user info as
     * HTTP Basic, so the token goes there, for a read and for a ?seconds window on an idle JVM. (A browser
     * sending a saved password for the same window is refused: HttpAccessIT.)
     */
    @Test
    void goToolPprofFetchesByUrlAndStartsAWindow() throws Exception {
        Path dir = Paths.workDir("pprof-by-url");
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Allocator.class)) {
            Http http = HttpEndpoint.serve(target.pid());
            String base = http.browserUrl();  // http://heaptap:TOKEN@127.0.0.1:PORT/
            String window = ContinuousIT.GoTools.run(dir, "go", "tool", "pprof", "-top", "-sample_index=alloc_space",
                    base + "debug/pprof/allocs?seconds=2");
            assertTrue(window.contains("Allocator.allocateLongs"), window);
            String heap = ContinuousIT.GoTools.run(dir, "go", "tool", "pprof", "-top", "-sample_index=alloc_space",
                    base + "debug/pprof/heap");
            assertTrue(heap.contains("Allocator.allocate"), heap);
        }
    }

    static long total(Profile p, int index) {
        return p.getSampleList().stream().mapToLong(s -> s.getValue(index)).sum();
    }
}
