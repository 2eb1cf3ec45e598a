package io.heaptap.attach;

import com.sun.tools.attach.VirtualMachine;

import io.heaptap.agent.jmx.LoopbackSockets;
import io.heaptap.agent.jmx.OwnConnector;
import io.heaptap.http.TokenFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** The CLI's side of heaptap's own JMX connector in a target (OwnConnector): where it is, and the connection with its key. */
final class OwnConnectorClient {
    /**
     * How long to wait for a connector a capture's start has coming ({@link OwnConnector#STARTING_PROPERTY}):
     * it starts right after the capture's reply, in well under a second even on a busy target.
     */
    static final Duration STARTING_WAIT = Duration.ofSeconds(10);

    private OwnConnectorClient() {
    }

    /** Loads the JMX and RMI client classes a connection needs, on a thread of its own while the target works. */
    static CompletableFuture<Void> loadClientClassesAhead() {
        return CompletableFuture.runAsync(OwnConnectorClient::loadClientClasses);
    }

    private static void loadClientClasses() {
        try {
            for (String name : CLIENT_CLASSES) {
                Class.forName(name, true, OwnConnectorClient.class.getClassLoader());
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // only a head start: the connection itself reports what is missing
        }
    }

    private static final List<String> CLIENT_CLASSES = List.of("javax.management.remote.rmi.RMIConnector",
            "javax.management.remote.rmi.RMIServerImpl_Stub", "javax.management.remote.rmi.RMIConnectionImpl_Stub",
            "sun.rmi.transport.tcp.TCPEndpoint", "java.io.ObjectInputStream", LoopbackSockets.class.getName());

    /**
     * The target's system properties once {@code awaited} (the connector's address, or the request
     * socket's) is there or not coming: while a capture's start has heaptap's connector and socket
     * coming, they are read again every 5 ms (for at most {@link #STARTING_WAIT}), so the caller does
     * not load the agent again just to start them.
     */
    static Properties settledProperties(VirtualMachine vm, String awaited) throws IOException {
        long deadline = System.nanoTime() + STARTING_WAIT.toNanos();
        Properties props = vm.getSystemProperties();
        while (props.getProperty(awaited) == null && props.getProperty(OwnConnector.STARTING_PROPERTY) != null
                && System.nanoTime() < deadline) {
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            props = vm.getSystemProperties();
        }
        return props;
    }

    /** heaptap's connector in the target, if its properties name one. */
    static Optional<JMXConnector> connect(Target target, Properties props) throws IOException {
        String url = props.getProperty(OwnConnector.URL_PROPERTY);
        String keyFile = props.getProperty(OwnConnector.KEY_FILE_PROPERTY);
        if (url == null || keyFile == null) {
            return Optional.empty();
        }
        String key;
        try {
            key = TokenFile.read(Path.of(keyFile), target.uid().orElse(-1));
        } catch (IllegalArgumentException e) {
            throw new CannotAttachException(target.pid(), "pid " + target.pid() + ": heaptap's JMX key: " + e.getMessage());
        }
        Map<String, Object> env = new HashMap<>();
        env.put(JMXConnector.CREDENTIALS, new String[] {OwnConnector.USER, key});
        // The stubs name heaptap's socket factory: resolved by heaptap's class loader, not the JDK's.
        env.put("jmx.remote.default.class.loader", OwnConnectorClient.class.getClassLoader());
        return Optional.of(JMXConnectorFactory.connect(new JMXServiceURL(url), env));
    }
}
