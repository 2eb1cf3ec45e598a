package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.HeaptapNotifications;
import io.heaptap.jmx.MBeanRegistration;
import io.heaptap.session.Controller;
import io.heaptap.session.DumpDirectory;
import io.heaptap.session.FakeHttpServing;
import io.heaptap.session.HttpServing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code heaptap status} over the real JMX stack (the MXBean in this JVM's platform MBeanServer, an
 * RMI connector server on loopback, the client's MXBean proxy), counting the requests the client
 * sends through the connection. It read one attribute per figure before (19 requests for an idle
 * session, 23 while recording with live tracking), each from its own snapshot of the session; now it
 * reads the Status composite once.
 */
class StatusRoundTripsTest {
    @TempDir
    Path dumps;

    private static final HttpServing NOT_SERVING = FakeHttpServing.NOT_SERVING;

    @Test
    void statusIsOneRoundTrip() throws Exception {
        Controller controller = new Controller(new DumpDirectory(dumps));
        MBeanRegistration.ensureRegistered(controller, new HeaptapNotifications(), "test-version", NOT_SERVING);
        JMXConnectorServer server = JMXConnectorServerFactory.newJMXConnectorServer(new JMXServiceURL("service:jmx:rmi://127.0.0.1"),
                null, ManagementFactory.getPlatformMBeanServer());
        server.start();
        try (JMXConnector client = JMXConnectorFactory.connect(server.getAddress())) {
            List<String> requests = new ArrayList<>();
            MBeanServerConnection counted = counting(client.getMBeanServerConnection(), requests);
            HeaptapMXBean heaptap = JMX.newMXBeanProxy(counted, MBeanRegistration.objectName(), HeaptapMXBean.class);

            String out = printed(() -> StatusCommand.print(4242, heaptap));

            assertEquals(List.of("getAttribute Status"), requests, "heaptap status reads the whole status in one request: " + requests);
            assertTrue(out.contains("pid:          4242\nstate:        idle\n"), out);
            assertTrue(out.contains("agent:        heaptap test-version"), out);
            assertTrue(out.contains("dump folder:  " + dumps), out);
            assertTrue(out.contains("http:         not serving"), out);
        } finally {
            server.stop();
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(MBeanRegistration.objectName());
        }
    }

    /** The connection, recording each request the MXBean proxy makes through it. */
    private static MBeanServerConnection counting(MBeanServerConnection real, List<String> requests) {
        return (MBeanServerConnection) Proxy.newProxyInstance(StatusRoundTripsTest.class.getClassLoader(),
                new Class<?>[] {MBeanServerConnection.class}, (proxy, method, args) -> {
                    requests.add(method.getName() + (method.getName().endsWith("Attribute") ? " " + args[1] : ""));
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static String printed(Runnable r) {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
