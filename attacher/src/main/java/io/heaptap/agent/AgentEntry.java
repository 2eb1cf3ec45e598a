package io.heaptap.agent;

import io.heaptap.cli.Version;
import io.heaptap.jmx.HeaptapNotifications;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.session.Controller;

import java.lang.instrument.Instrumentation;

/**
 * heaptap's start inside a target JVM, called by the launcher through the private class loader.
 * Loading the agent again (a second attach, or -javaagent plus an attach) reuses the one
 * Controller, and re-registers the MXBean if the application has unregistered it.
 */
public final class AgentEntry {
    private static Controller controller;
    private static HeaptapNotifications notifications;

    private AgentEntry() {
    }

    /** Dynamic attach: make sure the Controller and the MXBean are there. Sampling stays off. */
    public static void agentmain(String args, Instrumentation instrumentation) throws Exception {
        start();
    }

    /** -javaagent:heaptap.jar: the same, dormant until a capture is started. */
    public static void premain(String args, Instrumentation instrumentation) throws Exception {
        start();
    }

    private static synchronized void start() throws Exception {
        if (controller == null) {
            controller = new Controller();
            notifications = new HeaptapNotifications();
            controller.addListener(notifications);
        }
        MBeanRegistration.ensureRegistered(controller, notifications, Version.current());
    }
}
