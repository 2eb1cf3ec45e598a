package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.FootprintChurn;
import io.heaptap.it.workload.Quiet;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What live tracking holds back of a small heap under flat-out garbage of 16-256 KiB arrays beside a
 * live set of 40% of it: the tracked objects not yet examined stay under the byte bound the collector
 * gets (1.5% of the heap on generational ZGC, 5% on G1 and Parallel) at every look, every view says so,
 * and after a forced collection the live estimate of a retained set still covers its known truth.
 */
class LiveFootprintIT {
    static Stream<Arguments> collectors() {
        Jdk newest = Jdk.newest();
        Jdk current = Jdk.current();
        return Stream.of(Arguments.of(newest, "UseZGC", 0.015), Arguments.of(current, "UseG1GC", 0.05),
                Arguments.of(current, "UseParallelGC", 0.05));
    }

    @ParameterizedTest(name = "{0} -XX:+{1}")
    @MethodSource("collectors")
    void trackingHoldsNoMoreThanItsBoundAndStillEstimates(Jdk jdk, String gc, double share) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, FootprintChurn.class, List.of("-Xmx256m", "-XX:+" + gc))) {
            target.lowerPriorityOf("churn-");
            String pid = Long.toString(target.pid());
            // JDK 11-24's sampler miscounts bytes around allocations outside a TLAB, more the larger the interval (docs:
            // 2.6% at 64 KiB, up to 36% at 512 KiB); the default rate follows this garbage to hundreds of KiB, and the
            // kept set came out 10% low with nothing thinned by the bound (G1 and Parallel, JDK 17). A fixed 64 KiB there.
            Result started = jdk.feature() >= 25 ? HeaptapCli.run("start", pid, "--duration", "5m")
                    : HeaptapCli.run("start", pid, "--duration", "5m", "--interval", "64k");
            assertEquals(0, started.exitCode(), started::toString);
            long thinnings = 0;
            for (int look = 0; look < 5; look++) {
                JsonNode live = dump(pid, false).get("live");
                JsonNode hold = live.get("hold");
                long bound = hold.get("byteBudget").asLong();
                // The bound is a share of Runtime.maxMemory(), below the heap's maximum on Parallel by a survivor space (5.5% here).
                assertEquals(share, hold.get("share").asDouble(), 1e-9, hold::toString);
                assertEquals(live.get("heapMaxBytes").asLong() * share, bound, 0.1 * bound, "the bound under " + gc + ": " + hold);
                assertTrue(hold.get("unexaminedBytes").asLong() <= bound, "tracking holds more than its bound: " + hold);
                thinnings = hold.get("byteThinnings").asLong();
            }
            if (gc.equals("UseZGC") && jdk.feature() >= 23) {
                // Generational: its young cycles leave the weak references alone, so the garbage fills the bound.
                assertTrue(thinnings > 0, "flat-out garbage never reached the strict bound");
            }
            String status = HeaptapCli.run("status", pid).out();
            assertTrue(status.contains("tracking holds ") && status.contains(" not yet examined, bound "), status);

            // A retained set of known size, sampled while the garbage rests, proven by a forced collection.
            target.send("pause");
            target.awaitLine("paused", Duration.ofSeconds(30));
            dump(pid, true);  // a marking: what the bound held is examined (or gone), and the bound has room again
            target.send("retain");
            target.awaitLine("retained", Duration.ofSeconds(60));
            JsonNode profile = dump(pid, true);
            JsonNode hold = profile.get("live").get("hold");
            assertTrue(hold.get("unexaminedBytes").asLong() <= hold.get("byteBudget").asLong(), hold::toString);
            JsonNode proven = keptSite(profile).get("proven");
            double truth = (double) FootprintChurn.KEPT_COUNT * FootprintChurn.KEPT_BYTES;
            double estimate = proven.get("estimatedBytes").asDouble();
            double low = proven.get("estimatedBytesLow").asDouble();
            double high = proven.get("estimatedBytesHigh").asDouble();
            // The 95% interval misses one run in twenty by design: twice its half-width (about 4 sigma) is allowed.
            String what = String.format(Locale.ROOT, "%s: truth %,.0f, estimate %,.0f [%,.0f, %,.0f] from %d tracked; %s", gc, truth,
                    estimate, low, high, proven.get("tracked").asLong(), hold);
            assertTrue(proven.get("tracked").asLong() > 0, what);
            assertTrue(Math.abs(estimate - truth) <= (high - low), what);
            System.out.println("LiveFootprintIT " + jdk + " " + what);
            target.send("resume");
            assertTrue(target.isAlive());
        }
    }

    /**
     * A bound the user asks for reaches the native table, and one beyond a quarter of the heap is
     * refused in one line before anything samples: it would hand the application's heap to tracking.
     */
    @Test
    void anAskedForBoundIsKeptAndOneBeyondAQuarterOfTheHeapIsRefused() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Quiet.class, List.of("-Xmx256m", "-XX:+UseG1GC"))) {
            String pid = Long.toString(target.pid());
            Result refused = HeaptapCli.run("start", pid, "--duration", "1m", "--live-bytes", "40%");
            assertEquals(2, refused.exitCode(), refused::toString);
            assertEquals(1, refused.stderr().strip().lines().count(), refused::toString);
            assertTrue(refused.stderr().contains("at most 25%"), refused::toString);
            assertTrue(HeaptapCli.run("status", pid).out().contains("idle"), "nothing started");

            Result started = HeaptapCli.run("start", pid, "--duration", "1m", "--live-bytes", "3m");
            assertEquals(0, started.exitCode(), started::toString);
            JsonNode hold = dump(pid, false).get("live").get("hold");
            assertEquals(3L << 20, hold.get("byteBudget").asLong(), hold::toString);
        }
    }

    private static JsonNode dump(String pid, boolean gc) {
        Result r = gc ? HeaptapCli.run("dump", pid, "--format", "json", "--gc") : HeaptapCli.run("dump", pid, "--format", "json");
        assertEquals(0, r.exitCode(), r::toString);
        return Profiles.json(r.stdout());
    }

    /** The live part of the retaining site ({@code keep}), which must be there. */
    private static JsonNode keptSite(JsonNode profile) {
        for (JsonNode site : profile.get("sites")) {
            JsonNode stack = site.get("stack");
            if (stack.size() > 0 && stack.get(0).get("method").asText().equals("keep") && !site.get("live").isNull()) {
                return site.get("live");
            }
        }
        throw new AssertionError("no live site for keep");
    }
}
