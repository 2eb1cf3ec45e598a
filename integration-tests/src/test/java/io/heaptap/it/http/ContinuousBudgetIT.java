package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.ScrapedPaths;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Delta scrapes ({@code /debug/pprof/allocs?seconds=N}) of continuous sampling stay within heaptap's
 * heap budget in the target: a 48 MiB heap (a 3 MiB budget) with a full stack table, and more
 * concurrent delta scrapes over real HTTP than the budget can keep baselines for (a baseline is 40
 * bytes a site, so a bigger budget would need more connections than the endpoint accepts). Those admitted
 * answer with the right delta of a known batch allocated during every window; the others are refused
 * at once with 503 and the reason; what the target retains while they wait stays within the budget;
 * the target never runs out of heap; and afterwards the budget is wholly given back. A client that
 * disconnects mid-wait, and {@code heaptap stop --continuous} mid-wait, give a waiting scrape's share
 * back at once.
 */
class ContinuousBudgetIT {
    private static final long MIB = 1L << 20;
    /** More than a 3 MiB budget keeps baselines for beside the room their ends need (about 20 at a full table). */
    private static final int SCRAPES = 40;
    /** Scrapes started at once: well under the endpoint's 2 workers and 32 queued requests. */
    private static final int START_GROUP = 10;
    /**
     * The window: covers the batch, sent once every baseline is kept. That takes about a second, but
     * 20 baselines of a full stack table on a loaded 2-core machine may take several; a window that
     * ended before the last admission would count an answered scrape among those refused at once.
     */
    private static final int SECONDS = 15;
    private static final double SIGMAS = 4.5;
    private static final Pattern RETAINED = Pattern.compile("retained used=(\\d+) oom=(\\w+)");
    private static final Pattern DONE = Pattern.compile("done (\\d+) (\\d+)");

    private static int answeredSoFar(List<Future<Reply>> replies) {
        return (int) replies.stream().filter(Future::isDone).count();
    }

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void concurrentDeltaScrapesBeyondTheBudgetAreRefusedAndTheRestAreRight(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, ScrapedPaths.class, List.of("-Xmx48m"))) {
            Http http = HttpEndpoint.serve(target.pid(), "--continuous");
            JsonNode budget = HttpEndpoint.json(http.get("/api/status")).get("heapBudget");
            assertEquals(3 * MIB, budget.get("bytes").asLong(), "a sixteenth of a 48 MiB heap: " + budget);

            // The known site first (its stack is in the table before the table fills), then stacks until it is full.
            target.send("go");
            target.awaitLine("done", Duration.ofMinutes(1));
            Matcher stackBudget = Pattern.compile("stack budget (\\d+)")
                    .matcher(HttpEndpoint.json(http.get("/api/status")).get("continuous").asText());
            assertTrue(stackBudget.find());
            int tableStacks = Integer.parseInt(stackBudget.group(1));
            Wait.until("continuous sampling's stack table full", Duration.ofMinutes(1), () -> {
                fill(target);
                return stacks(scrape(http)) >= tableStacks;
            });
            long before = retained(target);

            ExecutorService clients = Executors.newFixedThreadPool(SCRAPES);
            // The scrapers' own client: its connections, idle after the burst until the server closes them, are never
            // picked up by the later requests of the test's client.
            HttpClient scrapers = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpRequest delta = HttpRequest.newBuilder(http.uri().resolve("debug/pprof/allocs?seconds=" + SECONDS))
                    .header("Authorization", "Bearer " + http.token()).timeout(Duration.ofMinutes(2)).build();
            try {
                List<Future<Reply>> replies = new ArrayList<>();
                for (int i = 0; i < SCRAPES; i++) {
                    if (i > 0 && i % START_GROUP == 0) {
                        // The endpoint answers a burst beyond its workers and their queue (34 requests) with "busy", by
                        // design; starting the scrapes in groups keeps this test about the budget's refusals.
                        int started = i;
                        Wait.until("a group of delta scrapes admitted or refused", Duration.ofSeconds(60), () -> HttpEndpoint
                                .json(http.get("/api/status")).get("heapBudget").get("deltaScrapesWaiting").asInt() + answeredSoFar(replies) == started);
                    }
                    replies.add(clients.submit(() -> {
                        HttpResponse<byte[]> r = scrapers.send(delta, HttpResponse.BodyHandlers.ofByteArray());
                        return new Reply(r.statusCode(), r.headers(), r.body());
                    }));
                }
                // Every scrape either keeps a baseline or was answered (refused at once): the windows have begun.
                JsonNode[] waiting = new JsonNode[1];
                Wait.until("every delta scrape admitted or refused", Duration.ofSeconds(60), () -> {
                    waiting[0] = HttpEndpoint.json(http.get("/api/status")).get("heapBudget");
                    // Counted as below (Future::isDone), not when the client thread got the answer: it may not have returned yet.
                    return waiting[0].get("deltaScrapesWaiting").asInt() + answeredSoFar(replies) == SCRAPES;
                });
                int admitted = waiting[0].get("deltaScrapesWaiting").asInt();
                List<Future<Reply>> refusedAtOnce = replies.stream().filter(Future::isDone).toList();
                long kept = waiting[0].get("keptBytes").asLong();
                System.out.println("ContinuousBudgetIT (" + jdk + "): " + admitted + " of " + SCRAPES + " delta scrapes admitted,"
                        + " keeping " + kept + " bytes of the " + budget.get("bytes").asLong() + "-byte budget");
                assertTrue(admitted >= 2, "several delta scrapes wait at once: " + waiting[0]);
                assertTrue(admitted < SCRAPES, "more scrapes than the budget keeps baselines for: " + waiting[0]);
                assertTrue(kept > 0 && kept <= waiting[0].get("bytes").asLong() / 2, "baselines are small: " + waiting[0]);

                // During every window: the known batch, and what the target retains meanwhile.
                target.send("go");
                long[] truth = done(target);
                long during = retained(target);
                assertTrue(during - before <= 3 * MIB + 2 * MIB, "what stays reachable while " + admitted + " delta scrapes wait"
                        + " grows by at most the budget: " + before + " -> " + during + " bytes");

                int answered = 0;
                int refused = 0;
                for (Future<Reply> f : replies) {
                    Reply r = f.get(2, TimeUnit.MINUTES);
                    if (r.status() == 200) {
                        answered++;
                        assertDelta(Profiles.pprof(r.body()), truth);
                    } else {
                        refused++;
                        HttpEndpoint.expectError(r, 503, null);
                        String message = HttpEndpoint.json(r).get("error").get("message").asText();
                        assertTrue(message.contains("heaptap's heap budget") || message.contains("heaptap's HTTP endpoint is busy"),
                                "a refusal says why: " + message);
                    }
                }
                System.out.println("ContinuousBudgetIT (" + jdk + "): " + answered + " answered, " + refused + " refused; heap retained "
                        + before + " bytes before, " + during + " while they waited");
                assertEquals(SCRAPES, answered + refused);
                assertEquals(SCRAPES - admitted, refusedAtOnce.size());
                for (Future<Reply> f : refusedAtOnce) {
                    String message = HttpEndpoint.json(f.get()).get("error").get("message").asText();
                    assertTrue(message.contains("kept by delta scrapes (?seconds=N) waiting out their windows"), message);
                }
                assertTrue(answered >= 2, answered + " delta scrapes answered");
            } finally {
                clients.shutdownNow();
            }

            // Afterwards: the budget is wholly back, a normal scrape works, and the target never ran out of heap.
            JsonNode after = HttpEndpoint.json(http.get("/api/status")).get("heapBudget");
            assertEquals(0, after.get("deltaScrapesWaiting").asInt(), after.toString());
            assertEquals(0, after.get("keptBytes").asLong(), after.toString());
            assertEquals(0, after.get("inUseBytes").asLong(), after.toString());
            assertTrue(after.get("peakBytes").asLong() <= after.get("bytes").asLong(), after.toString());
            scrape(http);
            Reply one = http.get("/debug/pprof/allocs?seconds=1");
            assertEquals(200, one.status(), one.toString());
            target.send("retained");
            assertTrue(target.awaitLine("retained", Duration.ofMinutes(1)).endsWith("oom=no"), "the target never ran out of heap");

            // A client that goes away mid-wait gives its share back at once (its window was ten minutes).
            URI uri = http.uri();
            try (Socket client = new Socket(uri.getHost(), uri.getPort())) {
                client.getOutputStream().write(("GET /debug/pprof/allocs?seconds=600 HTTP/1.1\r\nHost: " + uri.getHost()
                        + "\r\nAuthorization: Bearer " + http.token() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                client.getOutputStream().flush();
                awaitWaiting(http, 1);
            }
            awaitWaiting(http, 0);
            assertEquals(0, HttpEndpoint.json(http.get("/api/status")).get("heapBudget").get("keptBytes").asLong());

            // Continuous sampling stopped mid-wait (of ten minutes): the share is back, and the scrape refused, at once.
            CompletableFuture<Reply> stopped = CompletableFuture.supplyAsync(() -> http.get("/debug/pprof/allocs?seconds=600"));
            awaitWaiting(http, 1);
            HeaptapCli.Result stop = HeaptapCli.run("stop", Long.toString(target.pid()), "--continuous");
            assertEquals(0, stop.exitCode(), stop.toString());
            JsonNode afterStop = HttpEndpoint.json(http.get("/api/status")).get("heapBudget");
            assertEquals(0, afterStop.get("deltaScrapesWaiting").asInt(), afterStop.toString());
            assertEquals(0, afterStop.get("keptBytes").asLong(), afterStop.toString());
            Reply refusedAfterStop = stopped.get(2, TimeUnit.MINUTES);
            HttpEndpoint.expectError(refusedAfterStop, 409, null);
            assertTrue(refusedAfterStop.text().contains("continuous sampling"), refusedAfterStop.toString());
        }
    }

    private static void awaitWaiting(Http http, int scrapes) {
        Wait.until(scrapes + " delta scrapes waiting", Duration.ofSeconds(60),
                () -> HttpEndpoint.json(http.get("/api/status")).get("heapBudget").get("deltaScrapesWaiting").asInt() == scrapes);
    }

    /** One delta: the batch allocated during its window, within the sampling's uncertainty, and nothing negative. */
    private static void assertDelta(Profile p, long[] truth) {
        double seconds = p.getDurationNanos() / 1e9;
        assertTrue(seconds >= SECONDS - 0.05 && seconds < SECONDS + 30, "the delta covers its window: " + seconds + " s");
        long objects = 0;
        long bytes = 0;
        for (Sample s : p.getSampleList()) {
            assertTrue(s.getValue(0) >= 0 && s.getValue(1) >= 0, "no negative difference");
            if (allocatedIn(p, s, "ScrapedPaths.batch")) {
                objects += s.getValue(0);
                bytes += s.getValue(1);
            }
        }
        long interval = Profiles.largestInterval(p);
        double prob = 1 - Math.exp(-(double) ScrapedPaths.BYTES / interval);
        double tolerance = SIGMAS * Math.sqrt((1 - prob) / (prob * truth[0]));
        double objectsError = Math.abs(objects - truth[0]) / (double) truth[0];
        double bytesError = Math.abs(bytes - truth[1]) / (double) truth[1];
        String detail = String.format("estimate %d objects / %d bytes, truth %d / %d, error %.2f%% / %.2f%%, tolerance %.2f%%"
                + " (%.1f sigma at interval %d)", objects, bytes, truth[0], truth[1], 100 * objectsError, 100 * bytesError,
                100 * tolerance, SIGMAS, interval);
        // A missed or doubled batch is off by 100%: a 35% tolerance still tells them apart.
        assertTrue(tolerance < 0.35, "too few samples for a meaningful check: " + detail);
        assertTrue(objectsError <= tolerance && bytesError <= tolerance, detail);
    }

    private static void fill(TargetJvm target) {
        try {
            target.send("fill");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        target.awaitLine("filled", Duration.ofMinutes(1));
    }

    private static long retained(TargetJvm target) throws Exception {
        target.send("retained");
        Matcher m = RETAINED.matcher(target.awaitLine("retained", Duration.ofMinutes(1)));
        assertTrue(m.find());
        assertEquals("no", m.group(2), "the target ran out of heap");
        return Long.parseLong(m.group(1));
    }

    private static long[] done(TargetJvm target) {
        Matcher m = DONE.matcher(target.awaitLine("done", Duration.ofMinutes(1)));
        assertTrue(m.find());
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    private static Profile scrape(Http http) {
        Reply r = http.get("/debug/pprof/allocs");
        assertEquals(200, r.status(), r.toString());
        return Profiles.pprof(r.body());
    }

    /** Distinct stacks in the stack table: the samples' locations under the type (stable per frame), but "[other stacks]" and none. */
    private static long stacks(Profile p) {
        return p.getSampleList().stream().map(s -> s.getLocationIdList().subList(1, s.getLocationIdCount()))
                .filter(stack -> !stack.isEmpty() && !frameNames(p, stack).get(0).startsWith("[")).distinct().count();
    }

    /** Whether the allocating frame (the first under the allocated type) is {@code suffix}. */
    private static boolean allocatedIn(Profile p, Sample s, String suffix) {
        List<String> frames = frameNames(p, s);
        return frames.size() >= 2 && frames.get(1).endsWith(suffix);
    }

    private static List<String> frameNames(Profile p, Sample s) {
        return frameNames(p, s.getLocationIdList());
    }

    private static List<String> frameNames(Profile p, List<Long> locations) {
        List<String> names = new ArrayList<>();
        for (long id : locations) {
            var location = p.getLocation((int) id - 1);
            names.add(p.getStringTable((int) p.getFunction((int) location.getLine(0).getFunctionId() - 1).getName()));
        }
        return names;
    }
}
