package io.heaptap.it.attach;

import static io.heaptap.it.support.VerbosePhases.PHASE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Allocator;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code heaptap start --verbose} says where the time went: every phase of a first attach (the
 * CLI JVM's start, the attach handshake, the native agent loaded in the target, heaptap.jar loaded
 * with the capture's start riding on it, the first sample), phases that add up to the total it
 * prints, and a total no longer than the command took. No JMX on start's path, and a second attach
 * loads nothing. No timing goal here: those are the benchmark's.
 */
class StartVerboseIT {
    static final Pattern TOTAL = Pattern.compile("^heaptap: total +([0-9.]+) ms", Pattern.MULTILINE);

    record Phase(String name, double millis) {
    }

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void phasesOfAFirstAndASecondAttachAddUp(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            List<Phase> first = startVerbose(pid);
            List<String> names = first.stream().map(Phase::name).toList();
            assertInOrder(names, "CLI JVM start", "attach handshake", "read the target's Java version", "native agent load",
                    "heaptap.jar load (", "request and options parsed", "controller made", "capture start (",
                    "first sample in the target");
            assertFalse(names.stream().anyMatch(n -> n.contains("JMX")), "no JMX on start's path: " + names);
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());

            List<Phase> second = startVerbose(pid);
            List<String> again = second.stream().map(Phase::name).toList();
            assertFalse(again.stream().anyMatch(n -> n.startsWith("native agent load") || n.startsWith("heaptap.jar load")),
                    "a second attach loads nothing: " + again);
            assertInOrder(again, "attach handshake", "agent entry again (in the target; heaptap was loaded already)",
                    "controller reused", "capture start (", "first sample in the target");
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());
        }
    }

    /** Runs start --verbose and checks its phases add up to its total, which fits in the command's wall time. */
    static List<Phase> startVerbose(String pid) {
        long before = System.nanoTime();
        Result r = HeaptapCli.run("start", pid, "--duration", "1m", "--verbose");
        double wallMillis = (System.nanoTime() - before) / 1e6;
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("started a capture"), r::toString);
        List<Phase> phases = new ArrayList<>();
        Matcher m = PHASE.matcher(r.stderr());
        while (m.find()) {
            phases.add(new Phase(m.group(2).strip(), Double.parseDouble(m.group(1))));
        }
        Matcher t = TOTAL.matcher(r.stderr());
        assertTrue(t.find(), r::toString);
        double total = Double.parseDouble(t.group(1));
        double sum = phases.stream().mapToDouble(Phase::millis).sum();
        // each figure is rounded to 0.1 ms
        assertEquals(total, sum, 0.05 * (phases.size() + 1) + 1e-9, "the phases add up to the total\n" + r.stderr());
        // the first phase is timed from the kernel's process start time (10 ms ticks)
        assertTrue(total <= wallMillis + 20, "total " + total + " ms within the command's " + wallMillis + " ms\n" + r.stderr());
        assertTrue(phases.stream().allMatch(p -> p.millis() >= 0), r::toString);
        return phases;
    }

    static void assertInOrder(List<String> names, String... expected) {
        int at = 0;
        for (String e : expected) {
            while (at < names.size() && !names.get(at).startsWith(e)) {
                at++;
            }
            assertTrue(at < names.size(), "phase '" + e + "' missing or out of order in " + names);
        }
    }
}
