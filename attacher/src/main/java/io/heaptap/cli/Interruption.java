package io.heaptap.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C (or SIGTERM) during a command that owns a capture: the shutdown hook asks the command to
 * stop the capture in the target and write what it has, and waits for that to finish.
 */
public final class Interruption {
    static final long WRITE_GRACE_SECONDS = 30;
    private static volatile boolean shuttingDown;

    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook = new Thread(this::onSignal, "heaptap-interrupt");

    public static boolean shuttingDown() {
        return shuttingDown;
    }

    public Interruption install() {
        Runtime.getRuntime().addShutdownHook(hook);
        return this;
    }

    private void onSignal() {
        shuttingDown = true;
        requested.countDown();
        try {
            finished.await(WRITE_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to {@code millis}; true if interrupted meanwhile. */
    public boolean await(long millis) {
        try {
            return requested.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    public boolean requested() {
        return requested.getCount() == 0;
    }

    /** The command is done: removes the hook, or lets a running one return. */
    public void finish() {
        finished.countDown();
        if (!shuttingDown) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException raced) {
                // shutdown began meanwhile; the hook will see finished
            }
        }
    }
}
