package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.PprofTypes;
import io.heaptap.it.workload.ManyPaths;
import io.heaptap.it.workload.ScrapedAllocations;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Continuous sampling ({@code serve --continuous}, {@code -javaagent:heaptap.jar=serve,continuous}) scraped
 * as Grafana Alloy and Parca scrape a Go service: {@code /debug/pprof/allocs} cumulative and never
 * decreasing, stable sample identities, time stamps that advance; the difference of two scrapes,
 * taken with pprof's own merge as the backends take it, against what the target counted itself; an
 * on-demand capture in the middle that leaves the counters alone; and a day's worth of distinct
 * stacks within the tables' budget, counted under "[other stacks]".
 */
class ContinuousIT {
    private static final Pattern DONE = Pattern.compile("done small=(\\d+) (\\d+) large=(\\d+) (\\d+)");
    /** Tolerances in standard deviations of the estimate (at the largest interval in force: conservative). */
    private static final double SIGMAS = 4.5;

    /**
     * Five scrapes of /debug/pprof/allocs 3 s apart (Alloy's behaviour, at a faster cadence), with a
     * known batch allocated between each two; started from the command line as a container would.
     */
    static java.util.stream.Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void scrapedLikeAGoServiceAndSubtractedWithPprofsOwnMerge(Jdk jdk) throws Exception {
        Path dir = Paths.workDir("continuous-scrape");
        Path token = dir.resolve("token");
        Files.writeString(token, "continuous-scrape-token-0123456789");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        // JDK 17: the JVM's interval pinned at 8 KiB, thinned by the agent; 25: the JVM's interval moves.
        String agent = "-javaagent:" + Paths.heaptapJar() + "=serve,continuous,service=orders,token-file=" + token;
        try (TargetJvm target = TargetJvm.start(jdk, ScrapedAllocations.class, List.of(agent))) {
            HeaptapCli.Result served = HeaptapCli.run("serve", Long.toString(target.pid()));
            Matcher url = Pattern.compile("already serving at (\\S+)").matcher(served.out());
            assertTrue(url.find(), served.toString());
            Http http = new Http(url.group(1), Files.readString(token).strip());
            JsonNode status = HttpEndpoint.json(http.get("/api/status"));
            assertTrue(status.get("continuous").asText().contains("service orders"), status.toString());
            assertEquals("idle", status.get("state").asText(), "continuous sampling is not a capture");
            // The live view is continuous sampling's while no capture runs, not "not tracked".
            assertFalse(status.get("live").isNull(), status.toString());
            assertTrue(status.get("live").get("summary").size() > 0, status.toString());
            Reply reset = http.post("/api/reset");
            HttpEndpoint.expectError(reset, 409, null);
            assertTrue(reset.text().contains("never reset"), reset.toString());

            List<Profile> scrapes = new ArrayList<>();
            List<byte[]> bodies = new ArrayList<>();
            List<long[]> truths = new ArrayList<>();
            long last = 0;
            for (int i = 0; i < 5; i++) {
                if (i > 0) {
                    // Six batches: the batch's own rate drives the interval (up to 10 MiB here, since continuous
                    // sampling bounds what its samples cost), and each site still needs a few hundred samples for
                    // the check to mean something (two batches did when the interval stayed near 1 MiB).
                    target.send("go 6");
                    truths.add(done(target));
                    // The scraper's cadence: 3 s between scrapes (the batch is done before the next one).
                    long wait = last + TimeUnit.SECONDS.toNanos(3) - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                }
                last = System.nanoTime();
                Reply r = http.get("/debug/pprof/allocs");
                assertEquals(200, r.status(), r.toString());
                assertEquals("application/octet-stream", r.header("content-type").orElseThrow());
                assertEquals(0x1f, r.body()[0] & 0xff, "gzipped like Go's");
                Profile p = Profiles.pprof(r.body());
                assertEquals(PprofTypes.GO_HEAP_TYPES, PprofTypes.types(p));
                assertEquals("space/bytes", p.getStringTable((int) p.getPeriodType().getType()) + "/"
                        + p.getStringTable((int) p.getPeriodType().getUnit()));
                assertLabels(p, "orders", target.pid());
                scrapes.add(p);
                bodies.add(r.body());
            }

            for (int i = 1; i < scrapes.size(); i++) {
                Profile before = scrapes.get(i - 1);
                Profile after = scrapes.get(i);
                assertTrue(after.getTimeNanos() > before.getTimeNanos(), "time_nanos advances with each scrape");
                assertTrue(after.getDurationNanos() > before.getDurationNanos(), "duration_nanos: since continuous sampling began");
                long began = after.getTimeNanos() - after.getDurationNanos();
                assertTrue(Math.abs(began - (before.getTimeNanos() - before.getDurationNanos())) < 2_000_000,
                        "every scrape covers the time since the same start");
                assertNonDecreasing(before, after);
                long[] truth = truths.get(i - 1);
                long interval = Profiles.largestInterval(after);
                assertSite(delta(before, after, "ScrapedAllocations.small"), truth[0], truth[1], ScrapedAllocations.SMALL_BYTES,
                        interval, "small, scrapes " + (i - 1) + "-" + i);
                assertSite(delta(before, after, "ScrapedAllocations.large"), truth[2], truth[3], ScrapedAllocations.LARGE_BYTES,
                        interval, "large, scrapes " + (i - 1) + "-" + i);
            }

            // Real consumers: go tool pprof, and the pprof library's own merge of the older scaled by -1.
            Path older = dir.resolve("allocs-1.pb.gz");
            Path newer = dir.resolve("allocs-2.pb.gz");
            Files.write(older, bodies.get(1));
            Files.write(newer, bodies.get(2));
            String top = GoTools.run(dir, "go", "tool", "pprof", "-top", "-sample_index=alloc_space", newer.toString());
            assertTrue(top.contains("ScrapedAllocations.small") && top.contains("ScrapedAllocations.large"), top);
            String merged = GoTools.run(dir, GoTools.scrapeDiff(dir).toString(), older.toString(), newer.toString());
            Map<String, long[]> sites = new HashMap<>();
            for (String line : merged.split("\n")) {
                String[] f = line.split(" ");
                if (f.length == 4 && f[0].equals("site")) {
                    sites.put(f[1], new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
                }
            }
            long interval = Profiles.largestInterval(scrapes.get(2));
            long[] truth = truths.get(1);
            assertSite(sites.get(method(scrapes.get(2), "ScrapedAllocations.small")), truth[0], truth[1],
                    ScrapedAllocations.SMALL_BYTES, interval, "small, pprof's merge");
            assertSite(sites.get(method(scrapes.get(2), "ScrapedAllocations.large")), truth[2], truth[3],
                    ScrapedAllocations.LARGE_BYTES, interval, "large, pprof's merge");
            assertTrue(sites.values().stream().allMatch(v -> v[0] >= 0 && v[1] >= 0), "no site went backwards: " + merged);

            // heap: the live view, and the Go options as before.
            Reply heap = http.get("/debug/pprof/heap?gc=1");
            assertEquals(200, heap.status(), heap.toString());
            Profile h = Profiles.pprof(heap.body());
            assertEquals("inuse_space", h.getStringTable((int) h.getDefaultSampleType()));
            assertLabels(h, "orders", target.pid());
            Reply window = http.get("/debug/pprof/allocs?seconds=1");
            assertEquals(200, window.status(), window.toString());
            double seconds = Profiles.pprof(window.body()).getDurationNanos() / 1e9;
            assertTrue(seconds >= 0.95 && seconds < 3, "?seconds=1 is the delta of one second: " + seconds);
            Reply text = http.get("/debug/pprof/allocs?debug=1");
            assertEquals(200, text.status(), text.toString());
            assertTrue(text.text().contains("ScrapedAllocations"), text.text());
        }
    }

    /**
     * A heavy-allocation target sampled continuously, and an on-demand capture from the CLI in the
     * middle (about 15 s: long enough to cover a known batch and scrapes before, during and after;
     * the 60 s would add nothing the window's mechanics do not already show): the
     * continuous counters never dip, and the capture's own profile is its window, right against
     * what the target counted.
     */
    @Test
    void aCaptureInTheMiddleIsAWindowThatLeavesTheContinuousCountersAlone() throws Exception {
        Path dir = Paths.workDir("continuous-window");
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), ScrapedAllocations.class, List.of("-Xmx1g"), "busy")) {
            // Served without continuous sampling, a scrape with no capture fails clearly, naming the way out.
            Http http = HttpEndpoint.serve(target.pid());
            Reply off = http.get("/debug/pprof/allocs");
            HttpEndpoint.expectError(off, 409, null);
            assertTrue(off.text().contains("--continuous"), off.toString());
            // serve --continuous on a JVM that serves already turns continuous sampling on.
            HeaptapCli.Result on = HeaptapCli.run("serve", Long.toString(target.pid()), "--continuous");
            assertEquals(0, on.exitCode(), on.toString());
            assertTrue(on.out().contains("already serving") && on.out().contains("continuous sampling since"), on.toString());
            HeaptapCli.Result status = HeaptapCli.run("status", Long.toString(target.pid()));
            assertTrue(status.out().contains("continuous:   since"), status.toString());
            assertTrue(status.out().contains("service io.heaptap.it.workload.ScrapedAllocations"), status.toString());
            assertFalse(status.out().contains("not tracked"), "continuous sampling tracks on G1: " + status);

            Profile before = scrape(http);
            HeaptapCli.Result start = HeaptapCli.run("start", Long.toString(target.pid()), "--duration", "5m");
            assertEquals(0, start.exitCode(), start.toString());
            Profile during = scrape(http);
            // Twelve batches: the busy background drives the interval up to 10 MiB on 2 cores under the cost
            // bound (1-2 MiB at 5,000 samples/s, when four batches did), and the window's sites still need a few
            // hundred samples each.
            target.send("go 12");
            long[] truth = done(target);
            Profile during2 = scrape(http);
            HeaptapCli.Result stop = HeaptapCli.run("stop", Long.toString(target.pid()));
            assertEquals(0, stop.exitCode(), stop.toString());
            Path capture = dir.resolve("capture.pb.gz");
            HeaptapCli.Result dump = HeaptapCli.run("dump", Long.toString(target.pid()), "--out", capture.toString());
            assertEquals(0, dump.exitCode(), dump.toString());
            Profile after = scrape(http);

            assertNonDecreasing(before, during);
            assertNonDecreasing(during, during2);
            assertNonDecreasing(during2, after);
            long interval = Profiles.largestInterval(after);
            assertSite(delta(before, after, "ScrapedAllocations.small"), truth[0], truth[1], ScrapedAllocations.SMALL_BYTES,
                    interval, "continuous, small");

            Profile window = Profiles.pprof(capture);
            assertSite(siteTotals(window, "ScrapedAllocations.small"), truth[0], truth[1], ScrapedAllocations.SMALL_BYTES,
                    interval, "the capture's window, small");
            assertSite(siteTotals(window, "ScrapedAllocations.large"), truth[2], truth[3], ScrapedAllocations.LARGE_BYTES,
                    interval, "the capture's window, large");
            long windowBackground = siteTotals(window, "ScrapedAllocations.background")[1];
            long continuousBackground = siteTotals(after, "ScrapedAllocations.background")[1];
            assertTrue(windowBackground > 0 && windowBackground < continuousBackground,
                    "the window holds its own part of the steady allocations, not all since continuous began: " + windowBackground
                            + " of " + continuousBackground);
            double windowSeconds = window.getDurationNanos() / 1e9;
            double continuousSeconds = after.getDurationNanos() / 1e9;
            assertTrue(windowSeconds < continuousSeconds, windowSeconds + " s within " + continuousSeconds + " s");

            // The CLI stops continuous sampling too: status says it is off, and a reset (refused while it
            // ran) is accepted again.
            HeaptapCli.Result stopContinuous = HeaptapCli.run("stop", Long.toString(target.pid()), "--continuous");
            assertEquals(0, stopContinuous.exitCode(), stopContinuous.toString());
            assertTrue(stopContinuous.out().contains("continuous sampling stopped"), stopContinuous.toString());
            HeaptapCli.Result stoppedStatus = HeaptapCli.run("status", Long.toString(target.pid()));
            assertTrue(stoppedStatus.out().contains("continuous:   off"), stoppedStatus.toString());
            HeaptapCli.Result reset = HeaptapCli.run("reset", Long.toString(target.pid()));
            assertEquals(0, reset.exitCode(), reset.toString());
        }
    }

    /**
     * More distinct stacks than the stack table holds (2^20 call paths against 65,536: a day of a
     * big service's stacks in half a minute): native memory stays within the tables' budget, and
     * the samples whose stacks did not fit are still counted, under "[other stacks]", which keeps
     * growing while the number of stacks stays at the budget.
     */
    @Test
    void moreDistinctStacksThanTheBudgetAreCountedUnderOtherStacks() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), ManyPaths.class, List.of("-Xmx1g"), "24", "20")) {
            Http http = HttpEndpoint.serve(target.pid(), "--continuous", "--service", "many-paths");
            Wait.until("samples beyond the stack table", Duration.ofMinutes(2), () -> otherStacks(scrape(http)) > 0);
            Profile first = scrape(http);
            Wait.until("more samples beyond the stack table", Duration.ofMinutes(1),
                    () -> otherStacks(scrape(http)) > 2 * otherStacks(first));
            Profile p = scrape(http);
            assertLabels(p, "many-paths", target.pid());
            assertNonDecreasing(first, p);
            long stacks = byStack(p).size();
            JsonNode status = HttpEndpoint.json(http.get("/api/status"));
            Matcher budget = Pattern.compile("stack budget (\\d+)").matcher(status.get("continuous").asText());
            assertTrue(budget.find(), status.toString());
            // Counted per site: a stack that allocated several classes counts once per class, and each class has
            // its "[other stacks]" and stack-less (the VM's own allocations) entries.
            assertTrue(stacks <= Long.parseLong(budget.group(1)) + 256, "the stack table stays within its budget: " + stacks
                    + " stacks, " + status.get("continuous").asText());
            assertTrue(p.getCommentList().stream().map(i -> p.getStringTable(i.intValue())).noneMatch(c -> c.contains("samples lost")),
                    "no sample is lost");
            long nativeBytes = status.get("nativeMemoryBytes").asLong();
            System.out.println("ContinuousIT: after " + stacks + " stacks: native memory " + nativeBytes + " bytes; [other stacks] "
                    + otherStacks(p) + " objects");
            assertTrue(nativeBytes > 0 && nativeBytes < 64L << 20, "within 64 MiB (docs/continuous.md): " + nativeBytes);
            target.send("check");
            assertTrue(target.awaitLine("check", Duration.ofSeconds(30)).contains("oom=no"));
        }
    }

    private static long otherStacks(Profile p) {
        long other = 0;
        for (Sample s : p.getSampleList()) {
            if (frames(p, s).stream().anyMatch(f -> f.startsWith("[other stacks]"))) {
                other += s.getValue(0);
            }
        }
        return other;
    }

    static Profile scrape(Http http) {
        Reply r = http.get("/debug/pprof/allocs");
        assertEquals(200, r.status(), r.toString());
        return Profiles.pprof(r.body());
    }

    private static long[] done(TargetJvm target) {
        String line = target.awaitLine("done", Duration.ofMinutes(2));
        Matcher m = DONE.matcher(line);
        assertTrue(m.find(), line);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4))};
    }

    /** Every sample carries the fleet's labels as strings (the same in every scrape). */
    private static void assertLabels(Profile p, String service, long pid) {
        assertFalse(p.getSampleList().isEmpty());
        for (Sample s : p.getSampleList()) {
            Map<String, String> labels = new HashMap<>();
            s.getLabelList().forEach(l -> {
                assertEquals(0, l.getNum(), "no numeric label: it would change the sample's identity between scrapes");
                labels.put(p.getStringTable((int) l.getKey()), p.getStringTable((int) l.getStr()));
            });
            assertEquals(service, labels.get("service_name"));
            assertEquals(Long.toString(pid), labels.get("pid"));
            assertFalse(labels.getOrDefault("host", "").isEmpty());
            assertFalse(labels.getOrDefault("heaptap_version", "").isEmpty());
        }
    }

    /** Per stack, alloc_objects and alloc_space never go down, and no stack disappears. */
    private static void assertNonDecreasing(Profile before, Profile after) {
        Map<List<String>, long[]> later = byStack(after);
        byStack(before).forEach((stack, v) -> {
            long[] w = later.get(stack);
            assertTrue(w != null, "a stack disappeared: " + stack);
            assertTrue(w[0] >= v[0] && w[1] >= v[1], "a stack went down: " + stack + " " + v[0] + "/" + v[1] + " -> " + w[0] + "/" + w[1]);
        });
    }

    private static Map<List<String>, long[]> byStack(Profile p) {
        Map<List<String>, long[]> m = new HashMap<>();
        for (Sample s : p.getSampleList()) {
            long[] v = m.computeIfAbsent(frames(p, s), k -> new long[2]);
            v[0] += s.getValue(0);
            v[1] += s.getValue(1);
        }
        return m;
    }

    private static List<String> frames(Profile p, Sample s) {
        List<String> names = new ArrayList<>();
        for (long id : s.getLocationIdList()) {
            var location = p.getLocation((int) id - 1);
            var function = p.getFunction((int) location.getLine(0).getFunctionId() - 1);
            names.add(p.getStringTable((int) function.getName()) + ":" + location.getLine(0).getLine());
        }
        return names;
    }

    /** The allocating method's full name, as pprof names its function. */
    private static String method(Profile p, String suffix) {
        return p.getFunctionList().stream().map(f -> p.getStringTable((int) f.getName())).filter(n -> n.endsWith(suffix)).findFirst()
                .orElseThrow(() -> new AssertionError("no function " + suffix));
    }

    /** alloc_objects and alloc_space of the samples whose allocating frame (under the type) is {@code suffix}. */
    private static long[] siteTotals(Profile p, String suffix) {
        long[] t = new long[2];
        for (Sample s : p.getSampleList()) {
            if (s.getLocationIdCount() < 2) {
                continue;
            }
            var location = p.getLocation((int) s.getLocationId(1) - 1);
            var function = p.getFunction((int) location.getLine(0).getFunctionId() - 1);
            if (p.getStringTable((int) function.getName()).endsWith(suffix)) {
                t[0] += s.getValue(0);
                t[1] += s.getValue(1);
            }
        }
        return t;
    }

    private static long[] delta(Profile before, Profile after, String suffix) {
        long[] a = siteTotals(after, suffix);
        long[] b = siteTotals(before, suffix);
        return new long[] {a[0] - b[0], a[1] - b[1]};
    }

    /**
     * The estimate against the truth: objects of one size, each sampled with p = 1-exp(-size/R),
     * estimate N with relative standard deviation sqrt((1-p)/(pN)); R is the largest interval in
     * force, which makes the tolerance wider than the true one.
     */
    private static void assertSite(long[] estimate, long objects, long bytes, long size, long interval, String what) {
        assertTrue(estimate != null, what + ": no such site");
        double p = 1 - Math.exp(-(double) size / interval);
        double relSd = Math.sqrt((1 - p) / (p * objects));
        double tolerance = SIGMAS * relSd;
        double objectsError = Math.abs(estimate[0] - objects) / (double) objects;
        double bytesError = Math.abs(estimate[1] - bytes) / (double) bytes;
        String detail = String.format("%s: estimate %d objects / %d bytes, truth %d / %d, error %.2f%% / %.2f%%, tolerance %.2f%%"
                + " (%.1f sigma at interval %d)", what, estimate[0], estimate[1], objects, bytes, 100 * objectsError, 100 * bytesError,
                100 * tolerance, SIGMAS, interval);
        System.out.println("ContinuousIT: " + detail);
        // A reset or a window counted twice is off by 50-100%: a 35% tolerance still tells them apart, and
        // it holds for intervals up to about 30 MiB at the batches used here.
        assertTrue(tolerance < 0.35, "too few samples for a meaningful check: " + detail);
        assertTrue(objectsError <= tolerance && bytesError <= tolerance, detail);
    }

    /** Go: go tool pprof, and the test's pprof-merge program, built offline against Debian's pprof sources. */
    static final class GoTools {
        static Path scrapeDiff(Path dir) throws IOException, InterruptedException {
            Path source = Paths.testClasses().resolve("../../src/test/go/scrapediff/main.go").normalize();
            Path out = dir.resolve("scrapediff");
            run(dir, "go", "build", "-o", out.toString(), source.toString());
            return out;
        }

        static String run(Path dir, String... command) throws IOException, InterruptedException {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.put("GOPATH", "/usr/share/gocode");
            env.put("GO111MODULE", "off");
            env.put("GOFLAGS", "");
            env.put("GOPROXY", "off");
            env.put("GOCACHE", dir.resolve("go-cache").toString());
            env.put("HOME", dir.toString());
            Process process = pb.start();
            byte[] output = process.getInputStream().readAllBytes();
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), String.join(" ", command) + " did not finish");
            String text = new String(output, StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + text);
            return text;
        }
    }
}
