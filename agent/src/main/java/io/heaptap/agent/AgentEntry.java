package io.heaptap.agent;

import io.heaptap.agent.jmx.OwnConnector;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.session.Version;
import io.heaptap.http.HttpEndpoint;
import io.heaptap.jmx.HeaptapNotifications;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.session.AgentUnavailableException;
import io.heaptap.session.Controller;
import io.heaptap.session.SessionConflictException;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * heaptap's start inside a target JVM, called by the launcher through the private class loader.
 * Loading the agent again (a second attach, or -javaagent plus an attach) reuses the one
 * Controller and HTTP endpoint, and re-registers the MXBean if the application has unregistered it.
 */
public final class AgentEntry {
    /** How long a {@link CaptureRequest#reportFirstSample()} waits for the first sample. */
    static final long FIRST_SAMPLE_WAIT_MILLIS = 2_000;

    private static Controller controller;
    private static HeaptapNotifications notifications;
    private static HttpEndpoint http;
    private static boolean listening;
    private static boolean warmedUp;
    /** The reply properties published, oldest first: at most {@link AgentReply#KEPT} stay. */
    private static final ArrayDeque<String> replies = new ArrayDeque<>();

    private AgentEntry() {
    }

    /**
     * Dynamic attach: make sure the Controller and the MXBean are there. Sampling stays off, unless
     * the arguments are the CLI's {@link CaptureRequest}.
     */
    public static void agentmain(String args, Instrumentation instrumentation) throws Exception {
        long entered = System.nanoTime();
        AgentArgumentCodec.Decoded decoded = args == null || args.isBlank() ? null : AgentArgumentCodec.decode(args);
        if (decoded != null && decoded.command().equals(CaptureRequest.COMMAND)) {
            capture(decoded, entered);
        } else if (decoded != null && decoded.command().equals(StopRequest.COMMAND)) {
            stop(StopRequest.decode(decoded));
        } else if (decoded == null) {
            // heaptap's CLI, for a JMX connection: the MXBean, and the connector it talks to.
            try {
                start(AgentArguments.DORMANT);
            } finally {
                if (controller != null) {
                    OwnConnector.ensureStarted(controller.dumpDirectory());
                }
            }
        } else {
            start(AgentArguments.parse(decoded));
        }
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
        } catch (SessionConflictException | AgentUnavailableException e) {
            // Serving started; continuous sampling was refused (another profiler holds the capability, no native agent).
            System.err.println("heaptap: not sampling continuously (or not pushing): " + e.getMessage());
            throw e;
        } catch (IllegalStateException e) {
            System.err.println("heaptap: not serving: " + e.getMessage());
            throw e;
        }
    }

    private static synchronized void start(AgentArguments arguments) throws Exception {
        ensureController();
        ensureEndpoints();
        try {
            register();
        } finally {
            // Serving does not depend on JMX: a JVM whose MBeanServer refuses heaptap still serves HTTP.
            arguments.serve().ifPresent(http::start);
            if (arguments.continuous() && controller.continuous() == null) {
                controller.startContinuous(arguments.service(), "agent arguments");
            }
            if (arguments.push().isPresent()) {
                controller.startOtlpPush(arguments.push().get());
            }
        }
    }

    private static void ensureController() {
        if (controller == null) {
            controller = new Controller();
        }
    }

    /**
     * The MXBean's notifications and the HTTP endpoint, made once a controller exists. Not made
     * before a CLI's capture starts: the logger and JMX classes they load took 20-30 ms of a busy
     * target, while the CLI waited (the capture registers them right after, {@link #afterCapture}).
     */
    private static void ensureEndpoints() {
        if (notifications == null) {
            notifications = new HeaptapNotifications();
            http = new HttpEndpoint(controller, Version.current(), MBeanRegistration.objectName());
        }
    }

    /**
     * The MXBean, and its notifications from now on: nobody can listen to them before the bean is
     * registered, and building their text (formatters, locale data) would delay a capture's start.
     */
    private static synchronized void register() throws Exception {
        ensureEndpoints();
        if (!listening) {
            controller.addListener(notifications);
            listening = true;
        }
        MBeanRegistration.ensureRegistered(controller, notifications, Version.current(), http);
    }

    /**
     * Starts a capture first and answers at once; the MXBean (which may have to create the
     * platform MBeanServer) is registered afterwards on a thread of heaptap's own, off the path
     * to the first sample. Every outcome is a reply, never an exception the JDK would print.
     */
    private static synchronized void capture(AgentArgumentCodec.Decoded decoded, long entered) {
        String reply = CaptureRequest.replyOf(decoded);
        warmUpPropertyRead();
        AgentReply answer;
        CaptureRequest request = null;
        try {
            request = CaptureRequest.decode(decoded);
            long parsed = System.nanoTime();
            ensureController();
            long ready = System.nanoTime();
            Instant startedAt = controller.start(request.options(), request.client());
            answer = AgentReply.started(System.nanoTime(), startedAt, new AgentReply.Moments(entered, parsed, ready));
        } catch (IllegalArgumentException e) {
            answer = AgentReply.failed(AgentReply.Outcome.BAD_OPTIONS, e.getMessage());
        } catch (IllegalStateException e) {
            answer = AgentReply.failed(AgentReply.Outcome.REFUSED, e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            answer = AgentReply.failed(AgentReply.Outcome.FAILED, e.toString());
        }
        publish(AgentReply.property(reply), answer.encode());
        boolean firstSample = request != null && request.reportFirstSample() && answer.outcome() == AgentReply.Outcome.STARTED;
        if (controller != null) {
            afterCapture(reply, firstSample);
        }
    }

    /**
     * Has the JDK format its first {@code Date} now, on a thread of heaptap's own, while the capture
     * starts. The CLI reads its answer with the Attach API's system-property read, which the target
     * serves with {@code Properties.store}; its first use in a JVM formats a Date for its comment line,
     * and that loads the time zone and its display names: 30-55 ms of CPU in a fresh JDK 17 or 25,
     * 57-97 ms of the CLI's wait on a target whose threads saturate the cores. A JVM that has formatted
     * a date before pays nothing either way. The thread is heaptap's (its allocations are not sampled),
     * so the native agent must be loaded first; without it no capture starts anyway.
     */
    private static void warmUpPropertyRead() {
        if (warmedUp) {
            return;
        }
        warmedUp = true;
        try {
            NativeAgent.get();
        } catch (NativeAgentException e) {
            return;
        }
        Runnable store = () -> {
            try {
                new Properties().store(OutputStream.nullOutputStream(), null);
            } catch (IOException | RuntimeException e) {
                // only a warm-up: the Attach API's own read reports what fails
            }
        };
        try (NativeAgent.HeaptapWork ignored = NativeAgent.heaptapWork()) {
            Thread t = new Thread(NativeAgent.heaptapThread(store), "heaptap-warm-up");
            t.setDaemon(true);
            t.start();
        }
    }

    private static synchronized void stop(StopRequest request) {
        if (controller != null) {
            controller.stopIfStartedAt(request.startedAt(), request.reason());
        }
    }

    /** Registers the MXBean, and with --verbose waits for the first sample, on a thread of heaptap's own. */
    private static void afterCapture(String reply, boolean reportFirstSample) {
        Controller c = controller;  // read under the lock; the thread below uses it without
        Runnable body = () -> {
            if (reportFirstSample) {
                publish(AgentReply.firstSampleProperty(reply), firstSampleNanos(c));
            }
            try {
                register();
            } catch (Exception | LinkageError e) {
                // The next JMX command loads the agent again, registers synchronously and reports why not.
            }
            OwnConnector.ensureStarted(c.dumpDirectory());  // for the CLI's status and stop during the capture
        };
        try (NativeAgent.HeaptapWork ignored = NativeAgent.heaptapWork()) {
            Thread t = new Thread(NativeAgent.heaptapThread(body), "heaptap-register");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Polls the sample count every millisecond (to 1 ms, then): this runs only for {@code start --verbose}. */
    private static String firstSampleNanos(Controller c) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FIRST_SAMPLE_WAIT_MILLIS);
        while (System.nanoTime() < deadline) {
            if (c.status().samples() > 0) {
                return Long.toString(System.nanoTime());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(1);
            } catch (InterruptedException e) {
                return "none";
            }
        }
        return "none";
    }

    private static void publish(String property, String value) {
        synchronized (replies) {
            System.setProperty(property, value);
            if (!replies.contains(property)) {
                replies.addLast(property);
            }
            while (replies.size() > 2 * AgentReply.KEPT) {  // a reply and its first-sample property each
                System.clearProperty(replies.removeFirst());
            }
        }
    }
}
