package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.ManyThreads;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code heaptap paths} keeps its pause bound on a target with 2,000 threads parked 48 frames deep:
 * the target's own watchdog (a thread sleeping 1 ms in a loop) measures the longest stall.
 */
class PathsPauseIT {
    static final String HELD = ManyThreads.Held.class.getName();
    static final Pattern PAUSED = Pattern.compile("; ([0-9.]+) ms paused");
    /**
     * What the watchdog sees beyond the walk on 2 busy shared cores: attaching and the JMX calls
     * stop it too, and so does the scheduler (a 1 ms sleep woke 146 ms late with no heaptap at all).
     */
    static final long MARGIN_MS = 400;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    static TargetJvm trackedTarget(Jdk jdk) throws Exception {
        TargetJvm target = TargetJvm.start(jdk, ManyThreads.class, List.of(), "2000");
        String pid = Long.toString(target.pid());
        Result started = HeaptapCli.run("start", pid, "--duration", "10m", "--interval", "4k");
        assertEquals(0, started.exitCode(), started::toString);
        target.send("fill");
        target.awaitLine("filled", Duration.ofMinutes(1));
        Result stopped = HeaptapCli.run("stop", pid);
        assertEquals(0, stopped.exitCode(), stopped::toString);
        return target;
    }

    /** The longest stall in ms since the last call. */
    static long stallMillis(TargetJvm target) throws Exception {
        target.send("gap");
        return Long.parseLong(target.awaitLine("gap ", Duration.ofSeconds(30)).substring(4).trim()) / 1000;
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aShortTimeLimitIsKeptOrTheWalkIsRefused(Jdk jdk) throws Exception {
        try (TargetJvm target = trackedTarget(jdk)) {
            stallMillis(target);
            Result r = HeaptapCli.run("paths", Long.toString(target.pid()), "--site", HELD, "--time-limit", "100ms");
            long stall = stallMillis(target);
            System.out.println(jdk + ": 100ms asked, longest stall " + stall + " ms\n" + r);
            if (r.exitCode() == 5) {
                OneLineErrors.assertOneLineError(r, 5, "the heap walk would pause the application for about");
                assertTrue(Pattern.compile("its 20\\d\\d threads").matcher(r.stderr()).find(), r::toString);
            } else {
                assertEquals(0, r.exitCode(), r::toString);
            }
            assertTrue(stall <= 100 + MARGIN_MS, "the application stalled " + stall + " ms for a 100 ms limit\n" + r);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aWalkThatFitsReportsThePauseTheApplicationSaw(Jdk jdk) throws Exception {
        try (TargetJvm target = trackedTarget(jdk)) {
            stallMillis(target);
            Result r = HeaptapCli.run("paths", Long.toString(target.pid()), "--site", HELD, "--time-limit", "10s");
            long stall = stallMillis(target);
            System.out.println(jdk + ": 10s asked, longest stall " + stall + " ms\n" + r);
            assertEquals(0, r.exitCode(), r::toString);
            Matcher paused = PAUSED.matcher(r.out());
            assertTrue(paused.find(), r::toString);
            double reported = Double.parseDouble(paused.group(1));
            assertTrue(reported <= 10_000 + MARGIN_MS, r::toString);
            assertTrue(stall <= reported + MARGIN_MS, "the application stalled " + stall + " ms, the walk reported " + reported);
        }
    }
}
