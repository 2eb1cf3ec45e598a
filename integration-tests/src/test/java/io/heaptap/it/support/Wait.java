package io.heaptap.it.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;

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

    /**
     * Until heaptap in the target reports the state ({@code heaptap status}'s "state:" line), read from its
     * MBean over one local JMX connection: polling with {@code heaptap status} started a JVM per poll, on
     * the cores the target and the command under test need. The MBean appears when heaptap is loaded.
     */
    public static void forState(long pid, String state, Duration timeout) {
        try (JMXConnector jmx = Jmx.local(pid)) {
            MBeanServerConnection s = jmx.getMBeanServerConnection();
            until("pid " + pid + " to be " + state, timeout, () -> state.equals(stateOf(s)));
        } catch (Exception e) {
            throw new AssertionError("cannot read heaptap's state in pid " + pid, e);
        }
    }

    private static String stateOf(MBeanServerConnection s) {
        try {
            return s.isRegistered(Jmx.NAME) ? (String) s.getAttribute(Jmx.NAME, "State") : "";
        } catch (Exception e) {
            return "";
        }
    }
}
