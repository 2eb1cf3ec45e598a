package io.heaptap.agent;

import io.heaptap.session.Version;
import io.heaptap.http.HttpEndpoint;
import io.heaptap.jmx.HeaptapNotifications;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.session.Controller;

import java.lang.instrument.Instrumentation;

/**
 * heaptap's start inside a target JVM, called by the launcher through the private class loader.
 * Loading the agent again (a second attach, or -javaagent plus an attach) reuses the one
 * Controller and HTTP endpoint, and re-registers the MXBean if the application has unregistered it.
 */
public final class AgentEntry {
    private static Controller controller;
    private static HeaptapNotifications notifications;
    private static HttpEndpoint http;

    private AgentEntry() {
    }

    /** Dynamic attach: make sure the Controller and the MXBean are there. Sampling stays off. */
    public static void agentmain(String args, Instrumentation instrumentation) throws Exception {
        start(AgentArguments.parse(args));
    }

    /**
     * -javaagent:heaptap.jar: the same, dormant until a capture is started; with {@code =serve,...}
     * the HTTP endpoint serves from start-up. The user asked for it on the command line, so a
     * failure to serve is the one thing heaptap prints on the target's stderr; the JVM starts anyway.
     */
    public static void premain(String args, Instrumentation instrumentation) throws Exception {
        AgentArguments arguments = AgentArguments.DORMANT;
        try {
            arguments = AgentArguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("heaptap: not serving: " + e.getMessage());
        }
        try {
            start(arguments);
        } catch (IllegalStateException e) {
            System.err.println("heaptap: not serving: " + e.getMessage());
            throw e;
        }
    }

    private static synchronized void start(AgentArguments arguments) throws Exception {
        if (controller == null) {
            controller = new Controller();
            notifications = new HeaptapNotifications();
            controller.addListener(notifications);
            http = new HttpEndpoint(controller, Version.current(), MBeanRegistration.objectName());
        }
        try {
            MBeanRegistration.ensureRegistered(controller, notifications, Version.current(), http);
        } finally {
            // Serving does not depend on JMX: a JVM whose MBeanServer refuses heaptap still serves HTTP.
            arguments.serve().ifPresent(http::start);
        }
    }
}
