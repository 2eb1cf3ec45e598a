package io.heaptap.attach;

import io.heaptap.agent.jmx.LoopbackSockets;
import io.heaptap.agent.jmx.OwnConnector;
import io.heaptap.http.TokenFile;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.launcher.AgentLauncher;
import io.heaptap.session.Version;

import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A connection to heaptap inside a target JVM: attach with the Attach API, load heaptap.jar if
 * it is not there yet, then talk to the heaptap MXBean over heaptap's own JMX connector in the target
 * (the JVM's local one, JConsole's door, where heaptap has none). The Attach API connection is closed
 * once the connection stands.
 */
public final class AgentConnection implements AutoCloseable {
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
        return open(target, AttachPhases.NONE);
    }

    public static AgentConnection open(Target target, AttachPhases phases) {
        return AttachedVm.with(target, phases, attached -> {
            int feature = attached.checkJavaRelease();
            // The CLI's half of the JMX connection (RMI and JMX client classes) loads while the target works.
            CompletableFuture<Void> clientClasses = CompletableFuture.runAsync(AgentConnection::loadClientClasses);
            boolean loadedNow = !ProcFiles.heaptapLoaded(target.pid()).orElse(true);
            Properties props = loadedNow ? null : attached.systemProperties();
            boolean loadedHere = loadedNow || props.getProperty(OwnConnector.URL_PROPERTY) == null;
            if (loadedHere) {
                // heaptap.jar, or heaptap's connector in an agent loaded without one (-javaagent, a capture's start).
                attached.loadAgent("", AttachedVm.JAR_PHASE);
                props = attached.systemProperties();
            }
            clientClasses.join();
            JMXConnector connector = connect(target, attached, props);
            MBeanServerConnection server = connector.getMBeanServerConnection();
            boolean registered = server.isRegistered(MBeanRegistration.objectName());
            phases.mark("JMX connect");
            if (!registered) {
                // (registered meanwhile: a capture's start registers it just after sampling began)
                if (props.getProperty(MBeanRegistration.REGISTERED_PROPERTY) != null
                        && !server.isRegistered(MBeanRegistration.objectName())) {
                    System.err.println("heaptap: the heaptap MBean was unregistered in pid " + target.pid()
                            + " (by the application?); registering it again");
                }
                if (!loadedHere) {
                    attached.loadAgent("", AttachedVm.JAR_PHASE);
                }
                if (!server.isRegistered(MBeanRegistration.objectName())) {
                    String error = attached.systemProperties().getProperty(AgentLauncher.ERROR_PROPERTY);
                    connector.close();
                    throw new MBeanRefusedException("pid " + target.pid() + " did not register heaptap's MBean"
                            + (error == null ? "" : ": " + error));
                }
            }
            HeaptapMXBean bean = JMX.newMXBeanProxy(server, MBeanRegistration.objectName(), HeaptapMXBean.class);
            if (!loadedNow) {
                refuseAnotherVersion(target, connector, bean);  // loaded now: this jar's agent, no round trip needed
            }
            return new AgentConnection(target, connector, bean, feature);
        });
    }

    /**
     * heaptap's own connector in the target (OwnConnector), whose serving threads are heaptap's, so
     * the CLI's requests cost the application's profile nothing; the JVM's local connector where it
     * has none (an agent of an older heaptap, a dump folder it could not write its key into).
     */
    private static JMXConnector connect(Target target, AttachedVm attached, Properties props) throws IOException {
        String url = props.getProperty(OwnConnector.URL_PROPERTY);
        String keyFile = props.getProperty(OwnConnector.KEY_FILE_PROPERTY);
        if (url != null && keyFile != null) {
            String key;
            try {
                key = TokenFile.read(Path.of(keyFile), target.uid().orElse(-1));
            } catch (IllegalArgumentException e) {
                throw new CannotAttachException(target.pid(), "pid " + target.pid() + ": heaptap's JMX key: " + e.getMessage());
            }
            Map<String, Object> env = new HashMap<>();
            env.put(JMXConnector.CREDENTIALS, new String[] {OwnConnector.USER, key});
            // The stubs name heaptap's socket factory: resolved by heaptap's class loader, not the JDK's.
            env.put("jmx.remote.default.class.loader", AgentConnection.class.getClassLoader());
            return JMXConnectorFactory.connect(new JMXServiceURL(url), env);
        }
        String why = props.getProperty(OwnConnector.ERROR_PROPERTY);
        if (why != null) {
            System.err.println("heaptap: pid " + target.pid() + " uses the JVM's own JMX connector (heaptap's could not start: "
                    + why + "); its RMI threads' allocations for heaptap's requests show in the profile");
        }
        return JMXConnectorFactory.connect(new JMXServiceURL(attached.vm().startLocalManagementAgent()));
    }

    /** Loads the JMX and RMI client classes a connection needs. */
    private static void loadClientClasses() {
        try {
            for (String name : CLIENT_CLASSES) {
                Class.forName(name, true, AgentConnection.class.getClassLoader());
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // only a head start: the connection itself reports what is missing
        }
    }

    private static final List<String> CLIENT_CLASSES = List.of("javax.management.remote.rmi.RMIConnector",
            "javax.management.remote.rmi.RMIServerImpl_Stub", "javax.management.remote.rmi.RMIConnectionImpl_Stub",
            "sun.rmi.transport.tcp.TCPEndpoint", "java.io.ObjectInputStream", LoopbackSockets.class.getName());

    /** An agent loaded earlier by another heaptap version: refused in one line (VersionSkew). */
    private static void refuseAnotherVersion(Target target, JMXConnector connector, HeaptapMXBean bean) throws IOException {
        String agentVersion;
        try {
            agentVersion = bean.getAgentVersion();
        } catch (UndeclaredThrowableException e) {
            if (e.getCause() instanceof IOException lost) {
                throw lost;
            }
            agentVersion = null;  // an agent older than the attribute (AttributeNotFoundException)
        }
        Optional<CannotAttachException> skew = VersionSkew.check(target.pid(), agentVersion, Version.current());
        if (skew.isPresent()) {
            connector.close();
            throw skew.get();
        }
    }

    public Target target() {
        return target;
    }

    public HeaptapMXBean heaptap() {
        return heaptap;
    }

    /** The running capture's progress in one round trip; a broken connection fails as a proxy call does. */
    public CaptureProgress progress() {
        try {
            AttributeList answer = connector.getMBeanServerConnection().getAttributes(MBeanRegistration.objectName(),
                    CaptureProgress.ATTRIBUTES);
            return CaptureProgress.of(answer).orElseThrow(() -> TargetFailures.lostOrFailed(target,
                    new IOException("heaptap's MBean did not answer " + String.join(", ", CaptureProgress.ATTRIBUTES))));
        } catch (IOException | JMException e) {
            throw TargetFailures.lostOrFailed(target, e);
        }
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
