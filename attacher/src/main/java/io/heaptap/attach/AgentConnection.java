package io.heaptap.attach;

import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.launcher.AgentLauncher;
import io.heaptap.session.Version;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import javax.management.AttributeList;
import javax.management.JMException;
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
            JMXServiceURL url = new JMXServiceURL(attached.vm().startLocalManagementAgent());
            phases.mark("JMX agent start in the target");
            // The CLI's half of the JMX connection (RMI classes, handshake) overlaps the target's
            // agent load on a first attach, instead of waiting for it.
            CompletableFuture<JMXConnector> connecting = CompletableFuture.supplyAsync(() -> connect(url));
            boolean loadedNow = !ProcFiles.heaptapLoaded(target.pid()).orElse(true);
            if (loadedNow) {
                attached.loadAgent("", AttachedVm.JAR_PHASE);
            }
            JMXConnector connector = join(connecting);
            MBeanServerConnection server = connector.getMBeanServerConnection();
            boolean registered = server.isRegistered(MBeanRegistration.objectName());
            phases.mark("JMX connect (what was left of it)");
            if (!registered) {
                if (!loadedNow) {
                    Properties now = attached.systemProperties();
                    // (registered meanwhile: a capture's start registers it just after sampling began)
                    if (now.getProperty(MBeanRegistration.REGISTERED_PROPERTY) != null
                            && !server.isRegistered(MBeanRegistration.objectName())) {
                        System.err.println("heaptap: the heaptap MBean was unregistered in pid " + target.pid()
                                + " (by the application?); registering it again");
                    }
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

    private static JMXConnector connect(JMXServiceURL url) {
        try {
            return JMXConnectorFactory.connect(url);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JMXConnector join(CompletableFuture<JMXConnector> connecting) throws IOException {
        try {
            return connecting.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw e;
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
