package io.heaptap.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.Allocator;
import io.heaptap.it.workload.UnloadingTarget;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What happens when things go wrong mid-capture: Ctrl-C, a killed CLI, a target that exits, an unloaded class. */
class FaultsIT {

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @Test
    void ctrlCStopsTheCaptureInTheTargetAndStillWritesTheProfile() throws Exception {
        Path out = Paths.workDir("ctrl-c").resolve("profile.json");
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            Process cli = HeaptapCli.startLikeATerminal("capture", Long.toString(target.pid()), "--duration", "10m", "--out",
                    out.toString());
            Wait.forState(target.pid(), "recording", Duration.ofSeconds(60));
            new ProcessBuilder("kill", "-INT", Long.toString(cli.pid())).start().waitFor();
            Result r = HeaptapCli.finish(cli);
            assertEquals(130, r.exitCode(), r::toString);
            JsonNode profile = Profiles.json(out);
            assertTrue(profile.get("capture").get("samples").asLong() > 0);
            assertTrue(HeaptapCli.run("status", Long.toString(target.pid())).out().contains("state:        stopped"));
            assertTrue(target.isAlive());
        }
    }

    @Test
    void aKilledCliCannotLeaveSamplingOn() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            // 20 s: long enough that a status poll (a JVM start each) sees it recording on a loaded machine.
            Process cli = HeaptapCli.start("capture", Long.toString(target.pid()), "--duration", "20s");
            Wait.forState(target.pid(), "recording", Duration.ofSeconds(60));
            cli.destroyForcibly();  // SIGKILL: no shutdown hook, no stop() from the CLI
            assertTrue(cli.waitFor(30, TimeUnit.SECONDS));
            Wait.forState(target.pid(), "stopped", Duration.ofSeconds(60));
            assertTrue(target.isAlive());
        }
    }

    @Test
    void aTargetThatExitsDuringTheCaptureIsReported() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            Process cli = HeaptapCli.start("capture", Long.toString(target.pid()), "--duration", "10m");
            Wait.forState(target.pid(), "recording", Duration.ofSeconds(60));
            target.send("exit");
            Result r = HeaptapCli.finish(cli);
            assertEquals(6, r.exitCode(), r::toString);
            assertTrue(r.stderr().contains("pid " + target.pid() + ") exited"), r::toString);
            assertTrue(r.stderr().lines().count() == 1, r::toString);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aClassUnloadedBetweenSampleAndDumpKeepsItsNames(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, UnloadingTarget.class, Paths.testClasses().toString())) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "10m", "--interval", "16k").exitCode());
            target.send("allocate");
            target.awaitLine("allocated", Duration.ofSeconds(60));
            assertTrue(liveItems(HeaptapCli.run("dump", pid, "--format", "json")) > 0, "Items of the loader are tracked");
            target.send("unload");
            assertEquals("unloaded", target.awaitLine("", Duration.ofSeconds(60)));
            Result dump = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, dump.exitCode(), dump::toString);
            JsonNode frame = null;
            for (JsonNode site : Profiles.json(dump.stdout()).get("sites")) {
                JsonNode top = site.get("stack").get(0);
                if (top != null && top.get("class").asText().equals("io.heaptap.it.workload.Unloadable")) {
                    frame = top;
                }
            }
            assertTrue(frame != null, "the unloaded class's frames are still named");
            assertEquals(0, liveItems(dump), "objects of the unloaded class are no longer live");
            assertEquals("allocate", frame.get("method").asText());
            assertEquals("Unloadable.java", frame.get("file").asText());
            assertTrue(frame.get("line").asInt() > 0);
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());
            assertEquals(0, HeaptapCli.run("capture", pid, "--duration", "500ms").exitCode(), "still usable afterwards");
            assertTrue(target.isAlive());
        }
    }

    /** Live objects of type Unloadable$Item in a JSON dump. */
    static double liveItems(Result dump) {
        assertEquals(0, dump.exitCode(), dump::toString);
        double live = 0;
        for (JsonNode site : Profiles.json(dump.stdout()).get("sites")) {
            if (site.get("type").asText().equals("io.heaptap.it.workload.Unloadable$Item") && !site.get("live").isNull()) {
                JsonNode l = site.get("live");  // proven or not yet: whatever the weak references still reach
                live += l.get("proven").get("estimatedObjects").asDouble() + l.get("unexamined").get("estimatedObjects").asDouble();
            }
        }
        return live;
    }

    @Test
    void loadingTheAgentTwiceReusesIt() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            for (int i = 0; i < 3; i++) {
                assertEquals(0, HeaptapCli.run("status", pid).exitCode());
            }
            long libraries = Files.readAllLines(Path.of("/proc", pid, "maps")).stream()
                    .filter(l -> l.contains("libheaptap.so")).map(l -> l.substring(l.indexOf('/'))).distinct().count();
            assertEquals(1, libraries, "one libheaptap.so in the target");
        }
    }
}
