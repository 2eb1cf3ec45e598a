package io.heaptap.it.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.StaticHolder;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Starting continuous sampling zeroes the counters: over a capture nobody has dumped it is refused
 * (exit 5, naming the capture), the capture can still be dumped, and then continuous sampling starts.
 */
class ContinuousAfterCaptureIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void anUndumpedCaptureIsKeptAndContinuousSamplingWaitsForItsDump(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, StaticHolder.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "10m", "--interval", "4k").exitCode());
            target.send("fill");
            target.awaitLine("filled", Duration.ofMinutes(1));
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());

            Result refused = HeaptapCli.run("serve", pid, "--continuous");
            OneLineErrors.assertOneLineError(refused, 5, "has not been dumped");
            assertTrue(refused.stderr().contains("heaptap dump " + pid), refused::toString);

            Result dump = HeaptapCli.run("dump", pid);
            assertEquals(0, dump.exitCode(), dump::toString);
            assertTrue(dump.out().contains(StaticHolder.Leaked.class.getName()), "the capture is still there: " + dump);

            Result on = HeaptapCli.run("serve", pid, "--continuous");
            assertEquals(0, on.exitCode(), on::toString);
            assertTrue(on.out().contains("continuous sampling since"), on::toString);
        }
    }
}
