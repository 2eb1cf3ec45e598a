package io.heaptap.nativeagent;

/**
 * Starts a capture in this test JVM so that the calling thread is sampled from its next allocation.
 *
 * <p>Why: HotSpot sets a thread's next sample point only on its TLAB's slow path. A TLAB the thread
 * took while sampling was off (after an earlier test's stop, or before any capture) holds no sample
 * point, so nothing the thread allocates into it is sampled; G1 hands out TLABs of up to half a
 * region, more than some workloads here allocate. Which TLAB a thread holds depends on what ran
 * before in the JVM, so without this a test passed or failed with the test order (CI: every tracked
 * object of {@code FieldIndexPathsTest} missing, samples 0). A collection retires every TLAB.
 */
final class CaptureStart {
    private CaptureStart() {
    }

    static void withFreshTlabs(NativeAgent agent, SamplerSettings settings) throws NativeAgentException {
        agent.start(settings);
        if (!agent.forceGc()) {
            throw new IllegalStateException("JVMTI refused to force a collection");
        }
    }
}
