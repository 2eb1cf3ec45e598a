package io.heaptap.agent.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.MBeanServerForwarder;

import org.junit.jupiter.api.Test;

/**
 * The agent's requests answered in front of the connector's MBeanServer: only request(String) on
 * the private name reaches the agent, everything else passes through, and the name is in no MBeanServer.
 */
class AgentRequestsTest {
    private final List<String> received = new ArrayList<>();
    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final MBeanServerForwarder forwarder = AgentRequests.forwarder(request -> {
        received.add(request);
        if (request.equals("boom")) {
            throw new IllegalArgumentException("bad request");
        }
        return "answer to " + request;
    });

    AgentRequestsTest() {
        forwarder.setMBeanServer(server);
    }

    @Test
    void aRequestIsAnsweredByTheAgent() throws Exception {
        assertEquals("answer to capture", forwarder.invoke(AgentRequests.NAME, "request", new Object[] {"capture"},
                new String[] {String.class.getName()}));
        assertEquals(List.of("capture"), received);
        assertFalse(server.isRegistered(AgentRequests.NAME), "no MBean: the name lives on heaptap's connector only");
    }

    @Test
    void anythingButRequestOfOneStringIsRefusedWithoutReachingTheAgent() {
        String string = String.class.getName();
        Object[][] calls = {
                {"stop", new Object[] {"x"}, new String[] {string}},
                {"request", new Object[] {}, new String[] {}},
                {"request", new Object[] {"x", "y"}, new String[] {string, string}},
                {"request", new Object[] {42}, new String[] {"java.lang.Integer"}},
                {"request", new Object[] {"x"}, new String[] {"java.lang.Object"}},
                {"request", null, null},
        };
        for (Object[] call : calls) {
            assertThrows(ReflectionException.class,
                    () -> forwarder.invoke(AgentRequests.NAME, (String) call[0], (Object[]) call[1], (String[]) call[2]));
        }
        assertEquals(List.of(), received);
    }

    @Test
    void theAgentsFailureCrossesAsAJdkException() {
        ReflectionException e = assertThrows(ReflectionException.class,
                () -> forwarder.invoke(AgentRequests.NAME, "request", new Object[] {"boom"}, new String[] {String.class.getName()}));
        assertTrue(e.getMessage().contains("bad request"), e.getMessage());
        assertSame(IllegalArgumentException.class, e.getTargetException().getClass());
    }

    @Test
    void everyOtherCallPassesThrough() throws Exception {
        ObjectName delegate = new ObjectName("JMImplementation:type=MBeanServerDelegate");
        assertTrue(forwarder.isRegistered(delegate));
        assertEquals(server.getMBeanCount(), forwarder.getMBeanCount());
        assertEquals(server.getAttribute(delegate, "MBeanServerId"), forwarder.getAttribute(delegate, "MBeanServerId"));
        assertSame(server, forwarder.getMBeanServer());
    }

    /** Over a real RMI connector, as the CLI calls it: the connection reads the parameters with the name's loader first. */
    @Test
    void aRequestCrossesARealConnector() throws Exception {
        JMXConnectorServer connector = JMXConnectorServerFactory.newJMXConnectorServer(new JMXServiceURL("rmi", "127.0.0.1", 0),
                new HashMap<>(Map.of("jmx.remote.x.daemon", "true")), ManagementFactory.getPlatformMBeanServer());
        connector.setMBeanServerForwarder(forwarder);
        connector.start();
        try (JMXConnector client = JMXConnectorFactory.connect(connector.getAddress())) {
            assertEquals("answer to stop", client.getMBeanServerConnection().invoke(AgentRequests.NAME, "request",
                    new Object[] {"stop"}, new String[] {String.class.getName()}));
        } finally {
            connector.stop();
        }
    }
}
