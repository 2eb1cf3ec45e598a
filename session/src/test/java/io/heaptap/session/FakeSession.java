package io.heaptap.session;

import java.nio.file.Path;

/**
 * A {@link Controller} over a {@link FakeSampler}, published in this module's test-jar so that the
 * doors' unit tests (jmx-bridge, http-endpoint) can check their own logic (parameters, refusals,
 * status codes, what reaches the session) without a JVM to attach to. What only a real target can
 * show (the native agent, the Attach API, a real socket) stays in the integration tests.
 */
public final class FakeSession implements AutoCloseable {
    private final FakeSampler sampler = new FakeSampler();
    private final Controller controller;

    public FakeSession(Path dumps) {
        controller = new Controller(new DumpDirectory(dumps), sampler, null);
    }

    public Controller controller() {
        return controller;
    }

    /** Collections the session forced through the sampler. */
    public int forcedGcs() {
        return sampler.forcedGcs;
    }

    /** Times the sampler was started afresh (a window over continuous sampling does not count). */
    public int starts() {
        return sampler.starts;
    }

    /** Whether the sampler samples now. */
    public boolean sampling() {
        return sampler.sampling;
    }

    /**
     * Runs {@code hook} once, on the reading thread, in the middle of the next status read (inside the
     * session's own status, after the read has begun): a deterministic interleaving for tests of what a
     * status pairs with what.
     */
    public void duringNextStatusRead(Runnable hook) {
        sampler.onNextNativeMemoryRead.set(hook);
    }

    @Override
    public void close() {
        controller.stopContinuous();
        controller.reset();  // stops the live tracker's thread and the fake's sampling
    }
}
