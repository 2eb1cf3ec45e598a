package io.heaptap.attach;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.http.HttpEndpoint;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.launcher.AgentLauncher;
import io.heaptap.launcher.HeaptapJar;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.NativeLibrary;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A connection to heaptap inside a target JVM: attach with the Attach API, load heaptap.jar if
 * it is not there yet, then talk to the heaptap MXBean over the JVM's local JMX connector, the same
 * door JConsole uses. The Attach API connection is closed once the agent is loaded.
 */
public final class AgentConnection implements AutoCloseable {
    /** The first Java release heaptap supports in a target. */
    public static final int MIN_TARGET_FEATURE = 17;
    /** How long a target whose connection broke may take to be gone before heaptap calls it exited. */
    static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private final Target target;
    private final JMXConnector connector;
    private final HeaptapMXBean heaptap;
    private final int targetFeature;

    private AgentConnection(Target target, JMXConnector connector, HeaptapMXBean heaptap, int targetFeature) {
        this.target = target;
        this.connector = connector;
        this.heaptap = heaptap;
        this.targetFeature = targetFeature;
    }

    public static AgentConnection open(Target target) {
        VirtualMachine vm = attach(target);
        try {
            Properties props = vm.getSystemProperties();
            int feature = featureOf(props.getProperty("java.specification.version", "0"));
            if (feature < MIN_TARGET_FEATURE) {
                throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid() + " runs Java "
                        + props.getProperty("java.version") + "; heaptap needs Java " + MIN_TARGET_FEATURE + " or newer");
            }
            JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
            MBeanServerConnection server = connector.getMBeanServerConnection();
            if (!server.isRegistered(MBeanRegistration.objectName())) {
                if (props.getProperty(MBeanRegistration.REGISTERED_PROPERTY) != null) {
                    System.err.println("heaptap: the heaptap MBean was unregistered in pid " + target.pid()
                            + " (by the application?); registering it again");
                }
                loadAgent(vm, target, "");
                if (!server.isRegistered(MBeanRegistration.objectName())) {
                    String error = vm.getSystemProperties().getProperty(AgentLauncher.ERROR_PROPERTY);
                    connector.close();
                    throw new MBeanRefusedException("pid " + target.pid() + " did not register heaptap's MBean"
                            + (error == null ? "" : ": " + error));
                }
            }
            HeaptapMXBean bean = JMX.newMXBeanProxy(server, MBeanRegistration.objectName(), HeaptapMXBean.class);
            return new AgentConnection(target, connector, bean, feature);
        } catch (IOException e) {
            throw lostOrFailed(target, e);
        } finally {
            detachQuietly(vm);
        }
    }

    private static void detachQuietly(VirtualMachine vm) {
        try {
            vm.detach();
        } catch (IOException ignored) {
            // the target may have exited; nothing to release then
        }
    }

    private static VirtualMachine attach(Target target) {
        try {
            return VirtualMachine.attach(Long.toString(target.pid()));
        } catch (AttachNotSupportedException e) {
            if (ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
                throw exited(target);
            }
            String msg = String.valueOf(e.getMessage());
            if (msg.contains("does not support the attach mechanism")) {
                throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid()
                        + " was started with -XX:+DisableAttachMechanism; restart it with -javaagent:heaptap.jar to use heaptap");
            }
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "cannot attach to pid " + target.pid() + ": " + msg
                    + " (is it a HotSpot JVM run by the same user?)");
        } catch (IOException e) {
            if (ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
                throw exited(target);
            }
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "cannot attach to pid " + target.pid() + ": " + firstLine(e)
                    + " (is it a HotSpot JVM run by the same user?)");
        }
    }

    /**
     * Loads libheaptap.so as a JVMTI agent (unless it is mapped already), then heaptap.jar. Loading
     * the library from here rather than with System.load inside the target keeps JDK 24+ from
     * printing a restricted-method warning into the application's stderr.
     */
    private static void loadAgent(VirtualMachine vm, Target target, String agentArgs) throws IOException {
        try {
            if (!ProcFiles.heaptapLoaded(target.pid()).orElse(false)) {
                // Concurrent first attaches all name the same file, which the JVM maps once.
                NativeLibrary.Extracted lib = NativeLibrary.extract(Path.of(System.getProperty("java.io.tmpdir")));
                try {
                    vm.loadAgentPath(lib.path().toString(), null);
                } finally {
                    lib.loaded();
                }
            }
            vm.loadAgent(heaptapJar().toString(), agentArgs);
        } catch (NativeAgentException e) {
            throw new HeaptapException(ExitCode.INTERNAL, e.getMessage());
        } catch (AgentLoadException | AgentInitializationException e) {
            throw new HeaptapException(ExitCode.CANNOT_ATTACH, "pid " + target.pid() + " refused heaptap's agent: "
                    + e.getMessage() + ". If it runs with -XX:-EnableDynamicAgentLoading, start it with "
                    + "-XX:+EnableDynamicAgentLoading or -javaagent:heaptap.jar");
        }
    }

    /**
     * Where a target serves: its URL, and the owner-only file with the token it made (null when the
     * token was given), as the endpoint publishes them in {@value HttpEndpoint#URL_PROPERTY} and
     * {@value HttpEndpoint#TOKEN_FILE_PROPERTY}.
     */
    public record Served(String url, String tokenFile) {
    }

    /**
     * Starts the HTTP endpoint through the agent's arguments ({@code serve,port=...}), for a
     * target whose MBeanServer refuses heaptap's MBean, and says where it serves.
     */
    public static Served serveWithoutJmx(Target target, String serveArguments) {
        VirtualMachine vm = attach(target);
        try {
            loadAgent(vm, target, serveArguments);
            Properties props = vm.getSystemProperties();
            String url = props.getProperty(HttpEndpoint.URL_PROPERTY);
            if (url == null) {
                String error = props.getProperty(AgentLauncher.ERROR_PROPERTY);
                throw new HeaptapException(ExitCode.REFUSED, "pid " + target.pid() + " could not serve"
                        + (error == null ? "" : ": " + error));
            }
            return new Served(url, props.getProperty(HttpEndpoint.TOKEN_FILE_PROPERTY));
        } catch (IOException e) {
            throw lostOrFailed(target, e);
        } finally {
            detachQuietly(vm);
        }
    }

    /** heaptap.jar itself (the CLI's class loader sees the launcher's classes). */
    public static Path heaptapJar() {
        return HeaptapJar.path().toAbsolutePath();
    }

    static int featureOf(String specVersion) {
        String s = specVersion.startsWith("1.") ? specVersion.substring(2) : specVersion;
        try {
            return Integer.parseInt(s.split("\\.")[0]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A failure talking to the target: it exited (or is exiting: a JVM closes its connections
     * before its process ends, so it is given {@link #EXIT_GRACE} to be gone), or something else
     * broke. Either way one line, without the JDK's nested exception text.
     */
    public static HeaptapException lostOrFailed(Target target, Throwable e) {
        if (ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
            return exited(target);
        }
        return new HeaptapException(ExitCode.CANNOT_ATTACH, "lost the connection to pid " + target.pid() + ": " + firstLine(e));
    }

    private static HeaptapException exited(Target target) {
        return new HeaptapException(ExitCode.TARGET_EXITED, "the target JVM (pid " + target.pid() + ") exited");
    }

    /** The innermost cause's message, first line only (RMI nests whole exceptions in its messages). */
    static String firstLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse("").strip();
    }

    public Target target() {
        return target;
    }

    public HeaptapMXBean heaptap() {
        return heaptap;
    }

    public int targetFeature() {
        return targetFeature;
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException ignored) {
            // the target may be gone
        }
    }
}
