package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.ScrapedAllocations;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Continuous sampling pushed as OTLP profiles to a receiver run here (the JDK's HTTP server on
 * loopback, standing in for an OpenTelemetry Collector's OTLP/HTTP receiver), each body decoded with
 * the official opentelemetry-proto 1.10 classes as an {@code ExportProfilesServiceRequest}: the
 * service name, the target's allocation site, and deltas (a known batch counted once across the pushes,
 * not again in each). A receiver answering 503: counted in status, and the target goes on, scrapes too.
 */
class OtlpPushIT {
    private static final Pattern DONE = Pattern.compile("done small=(\\d+) (\\d+)");
    private static final String SMALL = "io.heaptap.it.workload.ScrapedAllocations.small";
    private static final double SIGMAS = 4.5;
    private static final Duration PUSH_WAIT = Duration.ofSeconds(30);

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    /** What the receiver got: the path, the content type and the decoded body. */
    record Push(String path, String contentType, ExportProfilesServiceRequest request) {
    }

    /** An OTLP/HTTP receiver for profiles on 127.0.0.1 that answers every POST with {@code status}. */
    static final class Receiver implements AutoCloseable {
        final BlockingQueue<Push> pushes = new LinkedBlockingQueue<>();
        private final HttpServer server;

        Receiver(int status) throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> answer(exchange, status));
            server.start();
        }

        private void answer(HttpExchange exchange, int status) throws IOException {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                if (!exchange.getRequestMethod().equals("POST")) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                pushes.add(new Push(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Content-Type"),
                        ExportProfilesServiceRequest.parseFrom(body)));
                // An empty ExportProfilesServiceResponse (no partial success) is zero bytes.
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(status, -1);
            }
        }

        String baseUrl() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        Push next() throws InterruptedException {
            Push p = pushes.poll(PUSH_WAIT.toSeconds(), TimeUnit.SECONDS);
            assertNotNull(p, "no push within " + PUSH_WAIT);
            return p;
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void pushedDeltasCarryTheServiceAndTheSiteAndCountABatchOnce(Jdk jdk) throws Exception {
        try (Receiver receiver = new Receiver(200);
             TargetJvm target = TargetJvm.start(jdk, ScrapedAllocations.class)) {
            Http http = HttpEndpoint.serve(target.pid(), "--continuous", "--service", "orders-push",
                    "--otlp-push", receiver.baseUrl(), "--otlp-every", "1s");

            Push first = receiver.next();
            assertEquals("/v1development/profiles", first.path(), "the path appended to the base URL");
            assertEquals("application/x-protobuf", first.contentType());
            Map<String, AnyValue> resource = first.request().getResourceProfiles(0).getResource().getAttributesList().stream()
                    .collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
            assertEquals("orders-push", resource.get("service.name").getStringValue(), "the service scrapes carry");
            assertFalse(resource.get("host.name").getStringValue().isEmpty());
            assertEquals(target.pid(), resource.get("process.pid").getIntValue());
            assertEquals(List.of("alloc_space/bytes", "alloc_objects/count", "inuse_space/bytes", "inuse_objects/count"),
                    types(first.request()));

            // A known batch, every push that came meanwhile, then two more: the second of them was taken a period
            // after the first had been answered, so after the batch had ended.
            List<Push> pushes = new ArrayList<>(List.of(first));
            target.send("go 6");
            long[] truth = done(target);
            pushes.addAll(drain(receiver));
            pushes.add(receiver.next());
            pushes.add(receiver.next());
            long objects = 0;
            long bytes = 0;
            // A push's period is the interval continuous sampling was started with; the sample-rate target moves it (to
            // 2.4-4.5 MiB during this batch on 2 cores, where the period still said 32 KiB). The tolerance takes the
            // largest interval since sampling began, which the pprof scrape's comment states, as ContinuousIT does.
            long interval = Profiles.largestInterval(Profiles.pprof(http.get("/debug/pprof/allocs").body()));
            for (Push p : pushes) {
                objects += small(p.request(), 1);
                bytes += small(p.request(), 0);
                interval = Math.max(interval, p.request().getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getPeriod());
            }
            assertSite(objects, bytes, truth[0], truth[1], ScrapedAllocations.SMALL_BYTES, interval,
                    "the batch's small site summed over " + pushes.size() + " pushes");
            for (Push p : pushes) {
                assertTrue(functions(p.request()).noneMatch(f -> f.startsWith("io.heaptap.") && !f.startsWith("io.heaptap.it.")
                        || f.startsWith("sun.net.www.")), "the push's own work (encoding, HTTP) is heaptap's, not the application's");
            }
            Push idle = receiver.next();
            assertEquals(0, small(idle.request(), 1), "a push after the batch does not repeat it: deltas, not totals");
            assertEquals(0, small(idle.request(), 0));

            int received = pushes.size() + 1;
            Wait.until("status to count the pushes received", PUSH_WAIT,
                    () -> HttpEndpoint.json(http.get("/api/status")).get("otlpPush").get("sent").asLong() >= received);
            JsonNode push = HttpEndpoint.json(http.get("/api/status")).get("otlpPush");
            assertEquals(receiver.baseUrl() + "/v1development/profiles", push.get("endpoint").asText(), push.toString());
            assertEquals(1000, push.get("everyMillis").asLong());
            assertEquals(0, push.get("failed").asLong(), push.toString());
            assertTrue(push.get("bytesSent").asLong() > 0, push.toString());
            assertFalse(push.get("lastSentAt").isNull(), push.toString());
            HeaptapCli.Result status = HeaptapCli.run("status", Long.toString(target.pid()));
            assertTrue(status.out().contains("OTLP push to " + receiver.baseUrl() + "/v1development/profiles every 1.0s: "),
                    status.toString());

            // Stopping continuous sampling stops the push.
            assertEquals(0, HeaptapCli.run("stop", Long.toString(target.pid()), "--continuous").exitCode());
            assertTrue(HttpEndpoint.json(http.get("/api/status")).get("otlpPush").isNull());
        }
    }

    /**
     * A collector answering 503, pushed to from the agent's start-up arguments: every period one attempt,
     * counted as failed with the status; the application and the scrapes go on.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void aRefusingCollectorIsCountedAndTheTargetGoesOn(Jdk jdk) throws Exception {
        Path dir = Paths.workDir("otlp-push-503-" + jdk.feature());
        Path token = dir.resolve("token");
        Files.writeString(token, "otlp-push-refused-token-0123456789");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        try (Receiver receiver = new Receiver(503)) {
            String agent = "-javaagent:" + Paths.heaptapJar() + "=serve,continuous,service=down,token-file=" + token
                    + ",otlp-push=" + receiver.baseUrl() + ",otlp-every=1s";
            try (TargetJvm target = TargetJvm.start(jdk, ScrapedAllocations.class, List.of(agent))) {
                HeaptapCli.Result served = HeaptapCli.run("serve", Long.toString(target.pid()));
                Matcher url = Pattern.compile("already serving at (\\S+)").matcher(served.out());
                assertTrue(url.find(), served.toString());
                Http http = new Http(url.group(1), Files.readString(token).strip());

                target.send("go 1");
                done(target);
                receiver.next();
                receiver.next();
                Wait.until("two failed pushes in status", PUSH_WAIT,
                        () -> HttpEndpoint.json(http.get("/api/status")).get("otlpPush").get("failed").asLong() >= 2);
                JsonNode push = HttpEndpoint.json(http.get("/api/status")).get("otlpPush");
                assertEquals(0, push.get("sent").asLong(), push.toString());
                assertEquals(0, push.get("bytesSent").asLong(), push.toString());
                assertTrue(push.get("lastError").asText().startsWith("HTTP 503 at "), push.toString());

                assertEquals(200, http.get("/debug/pprof/allocs").status(), "scrapes go on");
                target.send("go 1");
                done(target);
                assertTrue(target.isAlive());
                assertFalse(target.stderr().contains("heaptap:"), "nothing on the application's output: " + target.stderr());
            }
        }
    }

    private static List<Push> drain(Receiver receiver) {
        List<Push> out = new ArrayList<>();
        receiver.pushes.drainTo(out);
        return out;
    }

    private static List<String> types(ExportProfilesServiceRequest r) {
        ProfilesDictionary d = r.getDictionary();
        return r.getResourceProfiles(0).getScopeProfiles(0).getProfilesList().stream()
                .map(p -> d.getStringTable(p.getSampleType().getTypeStrindex()) + "/" + d.getStringTable(p.getSampleType().getUnitStrindex()))
                .toList();
    }

    /** Profile {@code index}'s values of the stacks the small site allocates (byte[] at ScrapedAllocations.small). */
    private static long small(ExportProfilesServiceRequest r, int index) {
        ProfilesDictionary d = r.getDictionary();
        Profile p = r.getResourceProfiles(0).getScopeProfiles(0).getProfiles(index);
        long sum = 0;
        for (Sample s : p.getSamplesList()) {
            List<Integer> locations = d.getStackTable(s.getStackIndex()).getLocationIndicesList();
            if (locations.size() > 1 && name(d, locations.get(0)).equals("byte[]") && name(d, locations.get(1)).equals(SMALL)) {
                sum += s.getValues(0);
            }
        }
        return sum;
    }

    /** Every function name of every stack sampled. */
    private static Stream<String> functions(ExportProfilesServiceRequest r) {
        ProfilesDictionary d = r.getDictionary();
        return r.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getSamplesList().stream()
                .flatMap(s -> d.getStackTable(s.getStackIndex()).getLocationIndicesList().stream()).map(l -> name(d, l));
    }

    private static String name(ProfilesDictionary d, int location) {
        return d.getStringTable(d.getFunctionTable(d.getLocationTable(location).getLines(0).getFunctionIndex()).getNameStrindex());
    }

    private static long[] done(TargetJvm target) {
        String line = target.awaitLine("done", Duration.ofMinutes(2));
        Matcher m = DONE.matcher(line);
        assertTrue(m.find(), line);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /** As ContinuousIT checks a scrape's difference: within 4.5 sigma at the largest interval seen, and meaningful. */
    private static void assertSite(long objectsEstimate, long bytesEstimate, long objects, long bytes, long size, long interval,
                                   String what) {
        double p = 1 - Math.exp(-(double) size / interval);
        double tolerance = SIGMAS * Math.sqrt((1 - p) / (p * objects));
        double objectsError = Math.abs(objectsEstimate - objects) / (double) objects;
        double bytesError = Math.abs(bytesEstimate - bytes) / (double) bytes;
        String detail = String.format("%s: estimate %d objects / %d bytes, truth %d / %d, error %.2f%% / %.2f%%, tolerance %.2f%%"
                + " (%.1f sigma at interval %d)", what, objectsEstimate, bytesEstimate, objects, bytes, 100 * objectsError,
                100 * bytesError, 100 * tolerance, SIGMAS, interval);
        System.out.println("OtlpPushIT: " + detail);
        // Pushes that repeated the totals would count the batch two or three times: off by 100% or more.
        assertTrue(tolerance < 0.35, "too few samples for a meaningful check: " + detail);
        assertTrue(objectsError <= tolerance && bytesError <= tolerance, detail);
    }
}
