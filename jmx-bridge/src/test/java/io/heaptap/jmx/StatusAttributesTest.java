package io.heaptap.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.session.FakeSession;
import io.heaptap.session.FakeHttpServing;
import io.heaptap.session.HttpServing;

import java.nio.file.Path;
import java.util.Arrays;

import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bean over a session (a fake sampler, no target JVM), through an MBeanServer's MXBean mapping: the
 * {@code Status} composite and the single attributes are renderings of the same status, item by item.
 */
class StatusAttributesTest {
    @TempDir
    Path tmp;

    private static final HttpServing SERVING = FakeHttpServing.at("http://127.0.0.1:8123/", "/tmp/heaptap-token");

    @Test
    void theCompositeAgreesWithEverySingleAttribute() throws Exception {
        try (FakeSession session = new FakeSession(tmp.resolve("dumps"))) {
            MBeanServer server = MBeanServerFactory.newMBeanServer();
            ObjectName name = new ObjectName("test:type=heaptap");
            server.registerMBean(new HeaptapBean(session.controller(), "1.2.3", SERVING), name);
            server.invoke(name, "start", new Object[] {"30s", "64k", ""}, new String[] {"java.lang.String", "java.lang.String",
                    "java.lang.String"});
            server.invoke(name, "stop", new Object[0], new String[0]);

            CompositeData status = (CompositeData) server.getAttribute(name, "Status");
            assertEquals("stopped", status.get("state"));
            assertTrue((Long) status.get("samples") > 0, "the fake sampled");
            for (String item : status.getCompositeType().keySet()) {
                if (item.equals("profileError")) {
                    assertEquals("", status.get(item), "the profile fits the heap budget");
                    continue;
                }
                Object single = server.getAttribute(name, Character.toUpperCase(item.charAt(0)) + item.substring(1));
                Object whole = status.get(item);
                if (whole instanceof Object[] lines) {
                    assertEquals(Arrays.asList(lines), Arrays.asList((Object[]) single), item);
                } else {
                    assertEquals(whole, single, item);
                }
            }
            assertEquals("1.2.3", status.get("agentVersion"));
            assertEquals("http://127.0.0.1:8123/", status.get("httpUrl"));
            assertEquals("/tmp/heaptap-token", status.get("httpTokenFile"));
            assertEquals(tmp.resolve("dumps").toString(), status.get("dumpDirectory"));
        }
    }
}
