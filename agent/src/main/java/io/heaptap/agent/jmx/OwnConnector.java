package io.heaptap.agent.jmx;

import io.heaptap.http.TokenFile;
import io.heaptap.session.DumpDirectory;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;

/**
 * heaptap's own JMX connector in the target, which heaptap's CLI uses instead of the JVM's local
 * one: the same platform MBeanServer, but its connections are served on threads marked as heaptap's
 * ({@link MarkedServerSockets}), so answering the CLI costs the application's profile nothing.
 * JConsole and every other client keep the JVM's own connectors; their traffic is not heaptap's.
 *
 * <p>Started once per JVM, when heaptap's CLI first asks for JMX; it lives as long as the JVM and
 * keeps nothing per client beyond what the JDK's connector keeps (an idle client is dropped after
 * the JDK's server connection timeout). It publishes its address in {@value #URL_PROPERTY} and the
 * path of its key in {@value #KEY_FILE_PROPERTY}, never the key.
 */
public final class OwnConnector {
    public static final String URL_PROPERTY = "heaptap.jmx.url";
    public static final String KEY_FILE_PROPERTY = "heaptap.jmx.keyFile";
    /** Why the connector did not start, when it did not: the CLI says so and uses the JVM's local connector. */
    public static final String ERROR_PROPERTY = "heaptap.jmx.error";
    /** The user name the CLI sends with the key. */
    public static final String USER = ConnectorKey.USER;
    static final String KEY_FILE = ".jmx-key";

    private static JMXConnectorServer server;
    private static boolean failed;

    private OwnConnector() {
    }

    /**
     * Starts the connector unless it runs or failed before (a second try would fail the same way;
     * the CLI then uses the JVM's local connector). Never throws: the reason is kept for the CLI.
     */
    public static synchronized void ensureStarted(DumpDirectory directory) {
        if (server != null || failed) {
            return;
        }
        TokenFile.Generated key = null;
        try {
            key = TokenFile.generate(directory, KEY_FILE, "heaptap's JMX key");
            // RMI object ids are capabilities: the JDK's own local connector asks for random ones too.
            if (System.getProperty("java.rmi.server.randomIDs") == null) {
                System.setProperty("java.rmi.server.randomIDs", "true");
            }
            Map<String, Object> env = new HashMap<>();
            env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, new MarkedServerSockets());
            env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, new LoopbackSockets());
            env.put(JMXConnectorServer.AUTHENTICATOR, new ConnectorKey(key.token()));
            // The credentials are two strings; nothing else is deserialised before the key is checked.
            env.put(RMIConnectorServer.CREDENTIALS_FILTER_PATTERN, "java.lang.String;!*");
            // Exported so as not to keep the JVM alive when the application's last thread ends.
            env.put("jmx.remote.x.daemon", "true");
            JMXConnectorServer started = JMXConnectorServerFactory.newJMXConnectorServer(
                    new JMXServiceURL("rmi", "127.0.0.1", 0), env, ManagementFactory.getPlatformMBeanServer());
            started.start();
            server = started;
            System.setProperty(KEY_FILE_PROPERTY, key.file().toString());
            System.setProperty(URL_PROPERTY, started.getAddress().toString());
        } catch (IOException | RuntimeException e) {
            failed = true;
            System.setProperty(ERROR_PROPERTY, String.valueOf(e.getMessage()));
            if (key != null) {
                try {
                    Files.deleteIfExists(key.file());
                } catch (IOException ignored) {
                    // a key to no connector opens nothing
                }
            }
        }
    }
}
