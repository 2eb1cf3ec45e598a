package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationSite;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The native agent inside this test JVM: real JVMTI, no attach needed. */
class NativeAgentTest {
    static volatile Object sink;

    @AfterEach
    void clear() throws Exception {
        NativeAgent.get().clear();
    }

    static void allocateInts(long bytes) {
        for (long done = 0; done < bytes; done += 4096 + 16) {
            sink = new int[1024];
        }
    }

    @Test
    void samplesAreAttributedToTheAllocatingMethodAndType() throws Exception {
        NativeAgent agent = NativeAgent.get();
        agent.start(64 * 1024, Duration.ofMinutes(1), 64, 1024);
        allocateInts(256L << 20);
        agent.stop();
        NativeSnapshot snapshot = agent.snapshot();

        assertTrue(snapshot.samples() > 1000, "samples: " + snapshot.samples());
        AllocationSite site = snapshot.sites().stream().filter(s -> s.type().equals("int[]")
                && !s.stack().isEmpty() && s.stack().get(0).methodName().equals("allocateInts")).findFirst().orElseThrow();
        assertEquals(NativeAgentTest.class.getName(), site.stack().get(0).className());
        assertEquals("NativeAgentTest.java", site.stack().get(0).sourceFile());
        assertTrue(site.stack().get(0).line() > 0);
        double relative = site.estimatedBytes() / (256.0 * (1 << 20));
        assertTrue(relative > 0.8 && relative < 1.2, "estimate/truth = " + relative);
    }

    @Test
    void theDeadlineIsEnforcedNatively() throws Exception {
        NativeAgent agent = NativeAgent.get();
        agent.start(16 * 1024, Duration.ofMillis(1), 64, 1024);
        long until = System.nanoTime() + Duration.ofMillis(5).toNanos();
        while (System.nanoTime() < until) {
            Thread.onSpinWait();  // let the 1 ms time box pass without allocating
        }
        allocateInts(64L << 20);
        NativeSnapshot snapshot = agent.snapshot();
        agent.stop();
        assertEquals(0, snapshot.samples());
        assertTrue(snapshot.drops().samplesAfterDeadline() > 0);
    }

    @Test
    void startStopStartWorksAndStopReleasesSampling() throws Exception {
        NativeAgent agent = NativeAgent.get();
        for (int round = 0; round < 3; round++) {
            agent.start(32 * 1024, Duration.ofMinutes(1), 16, 1024);
            assertTrue(agent.isSampling());
            allocateInts(16L << 20);
            agent.stop();
            assertFalse(agent.isSampling());
            long samples = agent.snapshot().samples();
            allocateInts(16L << 20);
            assertEquals(samples, agent.snapshot().samples(), "no samples after stop");
            assertTrue(samples > 0);
        }
    }

    @Test
    void deepStacksAreCutAtTheDepthAndSaySo() throws Exception {
        NativeAgent agent = NativeAgent.get();
        agent.start(8 * 1024, Duration.ofMinutes(1), 4, 1024);
        recurse(20 + ThreadLocalRandom.current().nextInt(2));
        agent.stop();
        NativeSnapshot snapshot = agent.snapshot();
        AllocationSite site = snapshot.sites().stream().filter(s -> s.type().equals("long[]")).findFirst().orElseThrow();
        assertEquals(4, site.stack().size());
        assertTrue(site.truncated());
        assertTrue(snapshot.drops().samplesTruncated() > 0);
    }

    static void recurse(int depth) {
        if (depth == 0) {
            for (int i = 0; i < 10_000; i++) {
                sink = new long[512];
            }
            return;
        }
        recurse(depth - 1);
    }
}
