package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.workload.StaticHolder;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** "How is it held?": {@code heaptap paths} against a real target, on every test JDK. */
class ReferencePathsIT {
    static final String LEAKED = StaticHolder.Leaked.class.getName();
    static final Pattern STATIC_LIST_CHAIN = Pattern.compile("\\d+\\. " + Pattern.quote("static " + StaticHolder.class.getName()
            + ".LIST -> java.util.ArrayList.elementData -> java.lang.Object[][") + "\\d+" + Pattern.quote("] -> " + LEAKED));

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    static TargetJvm filledTarget(Jdk jdk, List<String> jvmArgs) throws Exception {
        TargetJvm target = TargetJvm.start(jdk, StaticHolder.class, jvmArgs);
        String pid = Long.toString(target.pid());
        Result started = HeaptapCli.run("start", pid, "--duration", "10m", "--interval", "4k");
        assertEquals(0, started.exitCode(), started::toString);
        target.send("fill");
        target.awaitLine("filled", Duration.ofMinutes(1));
        Result stopped = HeaptapCli.run("stop", pid);
        assertEquals(0, stopped.exitCode(), stopped::toString);
        return target;
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theChainOfAStaticListIsExactlyStaticFieldArrayListElementDataArrayObject(Jdk jdk) throws Exception {
        try (TargetJvm target = filledTarget(jdk, List.of())) {
            Result r = HeaptapCli.run("paths", Long.toString(target.pid()), "--site", LEAKED);
            assertEquals(0, r.exitCode(), r::toString);
            List<String> lines = r.out().lines().toList();
            assertTrue(lines.get(0).startsWith("warning: the heap walk paused the application"), r::toString);
            List<String> chains = lines.stream().filter(l -> l.matches("\\d+\\. .*")).toList();
            assertEquals(3, chains.size(), r::toString);
            for (String chain : chains) {
                assertTrue(STATIC_LIST_CHAIN.matcher(chain).matches(), () -> "unexpected chain on " + jdk + ": " + chain + "\n" + r);
            }
            assertTrue(r.out().contains("walk: not cut off"), r::toString);
            System.out.println(jdk + ":\n" + r.out());
            target.send("ping");
            target.awaitLine("pong", Duration.ofSeconds(30));
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aBigHeapCutsTheWalkOffByTimeOrObjectsAndTheTargetRunsOn(Jdk jdk) throws Exception {
        try (TargetJvm target = filledTarget(jdk, List.of("-Xmx1g"))) {
            String pid = Long.toString(target.pid());
            target.send("big");
            target.awaitLine("built", Duration.ofMinutes(2));

            Result byTime = HeaptapCli.run("paths", pid, "--site", LEAKED, "--time-limit", "1ms");
            assertEquals(0, byTime.exitCode(), byTime::toString);
            assertTrue(byTime.out().contains("walk: cut off: the time limit was reached"), byTime::toString);
            assertTrue(byTime.out().contains("warning: the heap walk paused the application"), byTime::toString);

            Result byObjects = HeaptapCli.run("paths", pid, "--site", LEAKED, "--max-objects", "1000");
            assertEquals(0, byObjects.exitCode(), byObjects::toString);
            assertTrue(byObjects.out().contains("walk: cut off: the object budget was used up"), byObjects::toString);
            assertTrue(byObjects.out().contains("1,000 objects recorded"), byObjects::toString);

            // The same heap with room enough: the whole answer, and how long the application was paused.
            Result whole = HeaptapCli.run("paths", pid, "--site", LEAKED, "--time-limit", "10s", "--max-objects", "8000000");
            assertEquals(0, whole.exitCode(), whole::toString);
            assertEquals(3, whole.out().lines().filter(l -> STATIC_LIST_CHAIN.matcher(l).matches()).count(), whole::toString);
            System.out.println("big heap, " + jdk + ":\n" + byTime.out() + byObjects.out() + whole.out());

            target.send("ping");
            target.awaitLine("pong", Duration.ofSeconds(30));
            assertTrue(target.isAlive());
            assertFalse(target.stderr().contains("#"), "no crash report: " + target.stderr());
        }
    }

    @Test
    void anUnknownSiteIsABadArgument() throws Exception {
        try (TargetJvm target = filledTarget(Jdk.current(), List.of())) {
            Result r = HeaptapCli.run("paths", Long.toString(target.pid()), "--site", "NoSuchTypeAnywhere");
            OneLineErrors.assertOneLineError(r, 2, "no allocation site matches 'NoSuchTypeAnywhere'");
        }
    }

    @Test
    void withoutACaptureNothingIsTracked() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), StaticHolder.class)) {
            Result r = HeaptapCli.run("paths", Long.toString(target.pid()), "--site", LEAKED);
            OneLineErrors.assertOneLineError(r, 5, "nothing is tracked");
            assertTrue(target.isAlive());
        }
    }

    @Test
    void badBoundsAreRefusedBeforeAttaching() {
        OneLineErrors.assertOneLineError(HeaptapCli.run("paths", OneLineErrors.NO_SUCH_PID, "--site", "x", "--max-paths", "0"), 2,
                "max paths must be between 1 and 64");
        OneLineErrors.assertOneLineError(HeaptapCli.run("paths", OneLineErrors.NO_SUCH_PID, "--site", "x", "--time-limit", "11s"), 2,
                "above the maximum of 10s");
        OneLineErrors.assertOneLineError(HeaptapCli.run("paths", OneLineErrors.NO_SUCH_PID, "--site", "x", "--max-depth", "0"), 2,
                "max depth must be between 1 and 1024");
    }
}
