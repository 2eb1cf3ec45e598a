package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto.Profile;

import io.heaptap.it.support.Http;
import io.heaptap.it.support.Http.Reply;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.ClassChurn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Continuous mode on an application that keeps loading classes (a new class, method, stack and
 * allocated class every couple of milliseconds): for a minute of scrapes every 3 s, every scrape
 * answers 200, heaptap's native tables stay under docs/continuous.md's 64 MiB and stop growing once
 * full, and what does not fit is counted under "[other stacks]". Before the tables were bounded,
 * scrapes answered 503 from about 20 s into the churn (the estimated cost grew with the tables) and
 * native memory rose all the way.
 */
class ClassChurnIT {
    static final Duration RUN = Duration.ofSeconds(60);
    static final long SCRAPE_EVERY_MILLIS = 3000;
    static final long BOUND = 64L << 20;

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    static long rssKib(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void scrapesStayAnsweredAndTheTablesBoundedUnderClassChurn(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, ClassChurn.class)) {
            Http http = HttpEndpoint.serve(target.pid(), "--continuous");
            target.send("churn");
            target.awaitLine("churning", Duration.ofSeconds(30));
            List<String> trend = new ArrayList<>();
            List<Integer> statuses = new ArrayList<>();
            List<Long> natives = new ArrayList<>();
            long maxNative = 0;
            Profile last = null;
            long end = System.nanoTime() + RUN.toNanos();
            while (System.nanoTime() < end) {
                long next = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SCRAPE_EVERY_MILLIS);
                Reply scrape = http.get("/debug/pprof/allocs");
                statuses.add(scrape.status());
                if (scrape.status() == 200) {
                    last = Profiles.pprof(scrape.body());
                } else {
                    trend.add("scrape " + scrape.status() + ": " + scrape.text());
                }
                JsonNode status = HttpEndpoint.json(http.get("/api/status"));
                long nativeBytes = status.get("nativeMemoryBytes").asLong();
                maxNative = Math.max(maxNative, nativeBytes);
                natives.add(nativeBytes);
                trend.add(String.format("native %.1f MiB, rss %d KiB", nativeBytes / 1048576.0, rssKib(target.pid())));
                TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));  // pacing, not waiting for a state
            }
            target.send("count");
            long classes = Long.parseLong(target.awaitLine("count ", Duration.ofSeconds(30)).substring(6).trim());
            System.out.println("ClassChurnIT " + jdk + ": " + classes + " classes defined; " + statuses + "\n" + String.join("\n", trend));
            assertTrue(classes > 5_000, "the churn ran: " + classes + " classes");
            assertTrue(statuses.stream().allMatch(s -> s == 200), () -> "every scrape answered: " + statuses + "\n" + trend);
            assertTrue(maxNative < BOUND, "native tables within 64 MiB: " + maxNative + "\n" + trend);
            // Full tables stop growing: the last third of the run adds at most 1 MiB (the live table's
            // thinning moves a little). Before the tables were bounded it grew 1.5 MiB every 3 s here.
            long atTwoThirds = natives.get(natives.size() * 2 / 3);
            long atEnd = natives.get(natives.size() - 1);
            assertTrue(atEnd - atTwoThirds <= 1L << 20, "native tables stop growing: " + atTwoThirds + " -> " + atEnd + "\n" + trend);
            Profile p = last;
            assertTrue(p.getStringTableList().contains("[other stacks]"), "what does not fit is counted under [other stacks]");
            assertEquals(0, target.stderr().lines().filter(l -> l.contains("OutOfMemoryError")).count(), target.stderr());
        }
    }
}
