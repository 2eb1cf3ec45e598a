package io.heaptap.it.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Allocator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every load of a Java agent gives the target a JPLIS agent with a JVMTI environment of its own that
 * the JDK never disposes, so heaptap loads heaptap.jar into a target once: later starts, stops and
 * captures go over heaptap's own connector there. Counted from outside: the JDK makes one
 * {@code sun.instrument.InstrumentationImpl} per Java agent it loads and holds it for the JVM's life,
 * and {@code jcmd GC.class_histogram} counts its instances.
 */
class RepeatRequestsIT {
    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void startsStopsAndCapturesInARowLoadHeaptapOnce(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            for (int i = 0; i < 3; i++) {
                Result start = HeaptapCli.run("start", pid, "--duration", "1m");
                assertEquals(0, start.exitCode(), start::toString);
                assertTrue(start.out().contains("started a capture in pid " + pid), start::toString);
                if (i == 1) {
                    // A repeated request is refused exactly as before: exit code 5, one line.
                    Result again = HeaptapCli.run("start", pid, "--duration", "1m");
                    assertEquals(5, again.exitCode(), again::toString);
                    List<String> lines = again.stderr().lines().filter(l -> !l.isBlank()).toList();
                    assertEquals(1, lines.size(), again::toString);
                    assertTrue(lines.get(0).startsWith("heaptap: pid " + pid + " refused: a capture is already running"), again::toString);
                }
                Result stop = HeaptapCli.run("stop", pid);
                assertEquals(0, stop.exitCode(), stop::toString);
            }
            Result capture = HeaptapCli.run("capture", pid, "--duration", "1s", "--format", "json");
            assertEquals(0, capture.exitCode(), capture::toString);
            assertEquals(1, javaAgents(jdk, target.pid()), "Java agents (JVMTI environments of libinstrument) in the target");
        }
    }

    /** The live instances of InstrumentationImpl in the target: one per Java agent the JDK loaded into it. */
    static long javaAgents(Jdk jdk, long pid) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(jdk.home().resolve("bin/jcmd").toString(), Long.toString(pid), "GC.class_histogram")
                .redirectErrorStream(true).start();
        String histogram = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, jcmd.waitFor(), histogram);
        // "  344:             1             32  sun.instrument.InstrumentationImpl (java.instrument@17.0.15)"
        return histogram.lines().map(String::strip).map(l -> l.split("\\s+"))
                .filter(f -> f.length >= 4 && f[3].equals("sun.instrument.InstrumentationImpl"))
                .mapToLong(f -> Long.parseLong(f[1])).sum();
    }
}
