package io.heaptap.it.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes: waiting for a state, never for a time. */
public final class Wait {
    private Wait() {
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(50);  // poll interval only; the condition decides
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** Until {@code heaptap status} reports the state. */
    public static void forState(long pid, String state, Duration timeout) {
        until("pid " + pid + " to be " + state, timeout,
                () -> HeaptapCli.run("status", Long.toString(pid)).out().contains("state:        " + state));
    }
}
