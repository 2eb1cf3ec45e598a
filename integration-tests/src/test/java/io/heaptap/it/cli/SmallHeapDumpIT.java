package io.heaptap.it.cli;

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
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.ManyPaths;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue #15, item 2: a capture of ~65k distinct stacks in a 96 MB application. Dumping it made the
 * target answer 500 OutOfMemoryError and killed the application's own threads with it; the CLI
 * printed a Java stack trace. Now the CLI fetches the capture undecoded and encodes it itself, and
 * the target encodes only what fits heaptap's heap budget (6 MiB here): every other request is
 * refused with a message that says how to get the profile. The application proves it is unharmed:
 * its threads keep working and never saw an OutOfMemoryError.
 */
class SmallHeapDumpIT {
    static final Pattern URL = Pattern.compile("serving at (http://\\S+)");
    static final Pattern TOKEN_FILE = Pattern.compile("needs the token in (\\S+?)( \\(|:)");

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void dumpsOfABigProfileLeaveASmallHeapApplicationUnharmed(Jdk jdk) throws Exception {
        Path dir = Paths.workDir("small-heap-dump");
        try (TargetJvm target = TargetJvm.start(jdk, ManyPaths.class, List.of("-Xmx96m"))) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "6s", "--interval", "4k").exitCode());
            Wait.forState(target.pid(), "stopped", Duration.ofMinutes(2));
            assertHealthy(target);

            // The CLI: the whole profile, in the format the dump failed in and in pprof.
            target.send("window");
            target.awaitLine("window started", Duration.ofSeconds(30));
            long dumpsStarted = System.nanoTime();
            Result json = HeaptapCli.run("dump", pid, "--format", "json", "--out", dir.resolve("p.json").toString());
            assertEquals(0, json.exitCode(), json::toString);
            assertFalse(json.stderr().contains("\tat ") || json.stderr().contains("Exception"), json::toString);
            try (InputStream in = Files.newInputStream(dir.resolve("p.json"))) {
                assertTrue(new String(in.readNBytes(40), StandardCharsets.UTF_8).startsWith("{\"schema\":\"heaptap-profile\""));
            }
            Result pprof = HeaptapCli.run("dump", pid, "--out", dir.resolve("p.pb.gz").toString());
            assertEquals(0, pprof.exitCode(), pprof::toString);
            Profile profile = Profiles.pprof(dir.resolve("p.pb.gz"));
            assertTrue(profile.getSampleCount() > 30_000, "tens of thousands of stacks: " + profile.getSampleCount());
            long dumping = System.nanoTime() - dumpsStarted;
            target.send("measure");
            String measured = target.awaitLine("measure", Duration.ofSeconds(30));
            // The same application left alone as long: what its own heap use looks like. A measuring
            // window, not a wait for anything: the figures are printed and compared loosely.
            target.send("window");
            target.awaitLine("window started", Duration.ofSeconds(30));
            Thread.sleep(Duration.ofNanos(dumping).toMillis());
            target.send("measure");
            String idle = target.awaitLine("measure", Duration.ofSeconds(30));
            assertHealthy(target);
            long afterGc = number(measured, "afterGc");
            System.out.printf("%s, -Xmx96m, %d stacks: heap in use after GC at most %.1f MiB during the CLI dumps, %.1f MiB"
                    + " idle as long; threads other than the application's allocated %.1f MiB during the dumps, %.1f MiB idle%n",
                    jdk, profile.getSampleCount(), afterGc / 1048576.0, number(idle, "afterGc") / 1048576.0,
                    number(measured, "others") / 1048576.0, number(idle, "others") / 1048576.0);
            assertTrue(afterGc < number(idle, "afterGc") + (16L << 20),
                    "the application's own live set, not a decoded profile (~40 MiB): " + measured + " vs idle " + idle);

            // HTTP: each format is encoded in the target only if it fits heaptap's budget; here none does.
            Http http = serve(target.pid());
            for (String format : List.of("json", "html", "collapsed", "pprof", "text")) {
                Reply r = http.get("/api/dump?format=" + format);
                assertTrue(r.status() == 200 || r.status() == 503, format + ": " + r);
                if (r.status() == 503) {
                    JsonNode error = Profiles.json(r.body()).get("error");
                    assertTrue(error.get("message").asText().contains("heaptap's budget of 6.0 MiB"), r.toString());
                    assertTrue(error.get("message").asText().contains("heaptap dump " + pid), "says how to get it: " + r);
                }
            }
            for (String path : List.of("/debug/pprof/allocs", "/debug/pprof/heap", "/api/flamegraph")) {
                Reply r = http.get(path);
                assertTrue(r.status() == 200 || r.status() == 503, path + ": " + r);
            }
            Reply status = http.get("/api/status");
            assertEquals(200, status.status(), status::toString);
            assertTrue(Profiles.json(status.body()).has("profileUnavailable"), status::toString);
            assertHealthy(target);

            Result summary = HeaptapCli.run("status", pid);
            assertEquals(0, summary.exitCode(), summary::toString);
            assertTrue(summary.out().contains("profile:      decoding the profile needs about"), summary::toString);
            assertHealthy(target);
        }
    }

    /** The application's threads made progress since the last check and never saw an OutOfMemoryError. */
    static void assertHealthy(TargetJvm target) throws IOException {
        assertTrue(target.isAlive(), "the target is alive");
        target.send("check");
        String check = target.awaitLine("check", Duration.ofSeconds(30));
        assertTrue(check.contains("oom=no"), check);
        assertTrue(number(check, "progress") > 0, "the application's threads still work: " + check);
    }

    static long number(String line, String key) {
        Matcher m = Pattern.compile(key + "=(\\d+)").matcher(line);
        assertTrue(m.find(), line);
        return Long.parseLong(m.group(1));
    }

    /** {@code heaptap serve}, and a client with the token when the endpoint needs one. */
    static Http serve(long pid) throws IOException {
        Result r = HeaptapCli.run("serve", Long.toString(pid));
        assertEquals(0, r.exitCode(), r::toString);
        Matcher url = URL.matcher(r.out());
        assertTrue(url.find(), r.out());
        Matcher token = TOKEN_FILE.matcher(r.out());
        return token.find() ? new Http(url.group(1), Files.readString(Path.of(token.group(1))).strip()) : new Http(url.group(1));
    }
}
