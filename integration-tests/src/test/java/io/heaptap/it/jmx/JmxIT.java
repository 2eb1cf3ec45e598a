package io.heaptap.it.jmx;

import static io.heaptap.it.support.Jmx.NAME;
import static io.heaptap.it.support.Jmx.START;
import static io.heaptap.it.support.Jmx.local;
import static io.heaptap.it.support.Threads.threadNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.Wait;
import io.heaptap.it.workload.Allocator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.OpenType;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.junit.jupiter.api.Test;

/**
 * heaptap's MXBean through a generic JMX client, exactly as JConsole and VisualVM use it: the local
 * connector of a separate JVM (found through the Attach API) and a remote RMI connector on
 * loopback. No heaptap class is used on the client side.
 */
class JmxIT {
    /** A target with heaptap loaded at start-up (-javaagent): dormant until started. */
    static TargetJvm target(List<String> more) throws IOException {
        List<String> args = new java.util.ArrayList<>(List.of("-javaagent:" + Paths.heaptapJar()));
        args.addAll(more);
        return TargetJvm.start(Jdk.current(), Allocator.class, args);
    }

    @Test
    void localConnectorStartWatchNotificationDumpReset() throws Exception {
        try (TargetJvm target = target(List.of()); JMXConnector c = local(target.pid())) {
            MBeanServerConnection s = c.getMBeanServerConnection();
            assertEquals("idle", s.getAttribute(NAME, "State"), "-javaagent leaves heaptap dormant");
            String idleThreads = threadNames(target.pid());
            assertFalse(idleThreads.contains("heaptap-live") || idleThreads.contains("heaptap-gc-poll"),
                    "no heaptap thread busy while idle: " + idleThreads);

            BlockingQueue<Notification> notifications = new LinkedBlockingQueue<>();
            s.addNotificationListener(NAME, (n, handback) -> notifications.add(n), null, null);

            // 5 s: the checks of the running capture below must come before its time box ends on a loaded machine.
            s.invoke(NAME, "start", new Object[] {"5s", "64k", ""}, START);
            assertEquals("recording", s.getAttribute(NAME, "State"));
            assertTrue(threadNames(target.pid()).contains("heaptap-gc-poll"), "the GC cost polls young collections while recording");
            assertEquals(65536L, s.getAttribute(NAME, "SamplingIntervalBytes"));
            assertEquals("64.0 KiB (fixed)", s.getAttribute(NAME, "Sampling"));
            String cost = (String) s.getAttribute(NAME, "SamplingCost");
            assertTrue(cost.startsWith("sample callback ") || cost.equals("no samples kept"), "what the sampling costs so far: " + cost);
            Notification started = notifications.poll(30, TimeUnit.SECONDS);
            assertEquals("io.heaptap.capture.started", started.getType());
            Wait.until("samples to arrive", Duration.ofSeconds(30), () -> attribute(s, "Samples") > 0);

            Notification ended = notifications.poll(60, TimeUnit.SECONDS);
            assertTrue(ended != null && ended.getType().equals("io.heaptap.capture.ended"), "the time-box notification");
            assertTrue(ended.getMessage().contains("time box ended"), ended.getMessage());
            assertEquals("stopped", s.getAttribute(NAME, "State"));
            // Tracked objects are kept until reset, and so is their cleaning thread; nothing polls between collections.
            Wait.until("the GC poll to end with the capture", Duration.ofSeconds(30),
                    () -> !threadsOf(target.pid()).contains("heaptap-gc-poll"));
            assertTrue(threadNames(target.pid()).contains("heaptap-live"), "the live tracking goes on after the capture");
            assertTrue((Long) s.getAttribute(NAME, "EstimatedAllocatedBytes") > 0);
            // That the Status composite agrees with every single attribute needs no target: StatusAttributesTest.

            String path = (String) s.invoke(NAME, "dump", new Object[] {"json"}, new String[] {"java.lang.String"});
            assertTrue(path.startsWith((String) s.getAttribute(NAME, "DumpDirectory")), path);
            assertTrue(Profiles.json(Path.of(path)).get("capture").get("samples").asLong() > 0);

            CompositeData[] top = (CompositeData[]) s.invoke(NAME, "topAllocations", new Object[] {5}, new String[] {"int"});
            assertTrue(top.length > 0);
            assertEquals(1, top[0].get("rank"));
            assertTrue(((String) top[0].get("allocatedAt")).contains("Allocator."), top[0].toString());
            CompositeData[] live = (CompositeData[]) s.invoke(NAME, "topLive", new Object[] {5}, new String[] {"int"});
            assertTrue(live.length >= 0);

            s.invoke(NAME, "reset", new Object[0], new String[0]);
            assertEquals("idle", s.getAttribute(NAME, "State"));
            assertEquals(0L, s.getAttribute(NAME, "WeakRefs"));
            s.invoke(NAME, "reset", new Object[0], new String[0]);  // twice: harmless
            s.invoke(NAME, "stop", new Object[0], new String[0]);   // while idle: harmless
            assertEquals("idle", s.getAttribute(NAME, "State"));
        }
    }

    private static String threadsOf(long pid) {
        try {
            return threadNames(pid);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void remoteRmiConnectorOnLoopback() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        List<String> jmx = List.of("-Dcom.sun.management.jmxremote.port=" + port, "-Dcom.sun.management.jmxremote.rmi.port=" + port,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Djava.rmi.server.hostname=127.0.0.1",
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false");
        try (TargetJvm target = target(jmx);
             JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi"))) {
            MBeanServerConnection s = c.getMBeanServerConnection();
            s.invoke(NAME, "start", new Object[] {"1m", "64k", ""}, START);
            Wait.until("samples to arrive", Duration.ofSeconds(30), () -> attribute(s, "Samples") > 0);
            s.invoke(NAME, "stop", new Object[0], new String[0]);
            assertEquals("stopped", s.getAttribute(NAME, "State"));
            byte[] pprof = (byte[]) s.invoke(NAME, "dumpBytes", new Object[] {"pprof", "", 0L, false},
                    new String[] {"java.lang.String", "java.lang.String", "long", "boolean"});
            assertTrue(Profiles.pprof(pprof).getSampleCount() > 0);
            s.invoke(NAME, "reset", new Object[0], new String[0]);
        }
    }

    @Test
    void aCaptureStartedInJmxIsSeenByTheCliAndTheOtherWayRound() throws Exception {
        try (TargetJvm target = target(List.of()); JMXConnector c = local(target.pid())) {
            MBeanServerConnection s = c.getMBeanServerConnection();
            String pid = Long.toString(target.pid());
            s.invoke(NAME, "start", new Object[] {"1m", "64k", "", 16, 1024, "true", 4096, "", "jmx-test"}, Jmx.START_ALL);
            Result status = HeaptapCli.run("status", pid);
            assertTrue(status.out().contains("state:        recording") && status.out().contains("started by:   jmx-test"),
                    status::toString);
            Result refused = HeaptapCli.run("start", pid, "--duration", "10s");
            assertEquals(5, refused.exitCode(), refused::toString);
            assertTrue(refused.stderr().contains("started by jmx-test") && refused.stderr().contains("ends at"), refused::toString);
            Result dump = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, dump.exitCode(), dump::toString);
            assertEquals(16, Profiles.json(dump.stdout()).get("capture").get("stackDepth").asInt());
            s.invoke(NAME, "stop", new Object[0], new String[0]);

            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "1m").exitCode());
            assertEquals("recording", s.getAttribute(NAME, "State"));
            assertTrue(((String) s.getAttribute(NAME, "StartedBy")).startsWith("heaptap start"));
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());
            assertEquals("stopped", s.getAttribute(NAME, "State"));
        }
    }

    @Test
    void everyAttributeOperationAndParameterIsDescribedNamedAndOpen() throws Exception {
        try (TargetJvm target = target(List.of()); JMXConnector c = local(target.pid())) {
            MBeanInfo info = c.getMBeanServerConnection().getMBeanInfo(NAME);
            assertFalse(info.getDescription().isBlank());
            for (MBeanAttributeInfo a : info.getAttributes()) {
                assertFalse(a.getDescription().isBlank() || a.getDescription().equals(a.getName()), a.getName());
                assertInstanceOf(OpenType.class, a.getDescriptor().getFieldValue("openType"), a.getName());
            }
            for (MBeanOperationInfo op : info.getOperations()) {
                assertFalse(op.getDescription().isBlank() || op.getDescription().equals(op.getName()), op.getName());
                assertInstanceOf(OpenType.class, op.getDescriptor().getFieldValue("openType"), op.getName());
                for (MBeanParameterInfo p : op.getSignature()) {
                    assertFalse(p.getName().matches("p\\d+"), op.getName() + " has an unnamed parameter");
                    assertFalse(p.getDescription().isBlank(), op.getName() + "." + p.getName());
                    assertInstanceOf(OpenType.class, p.getDescriptor().getFieldValue("openType"), op.getName() + "." + p.getName());
                }
            }
            assertEquals(3, info.getNotifications().length, "capture started, capture ended, leak suspect");
        }
    }

    @Test
    void dumpsStayInsideTheDumpDirectory() throws Exception {
        Path outside = Paths.workDir("outside");
        try (TargetJvm target = target(List.of()); JMXConnector c = local(target.pid())) {
            MBeanServerConnection s = c.getMBeanServerConnection();
            s.invoke(NAME, "start", new Object[] {"500ms", "64k", "", 0, 0, "false", 0, "", ""}, Jmx.START_ALL);
            Wait.until("the capture to end", Duration.ofSeconds(30), () -> "stopped".equals(string(s, "State")));
            s.invoke(NAME, "dump", new Object[] {"json"}, new String[] {"java.lang.String"});  // creates the folder
            Path dir = Path.of(string(s, "DumpDirectory"));
            Files.createSymbolicLink(dir.resolve("link.json"), outside.resolve("escaped.json"));
            for (String name : new String[] {"../escape.json", outside.resolve("abs.json").toString(), "sub/x.json", ".hidden",
                    "link.json", ""}) {
                RuntimeMBeanException e = assertThrows(RuntimeMBeanException.class, () -> s.invoke(NAME, "dump",
                        new Object[] {"json", name}, new String[] {"java.lang.String", "java.lang.String"}), name);
                assertInstanceOf(IllegalArgumentException.class, e.getCause(), name);
            }
            try (var files = Files.list(outside)) {
                assertEquals(0, files.count(), "nothing was written outside the dump directory");
            }
            String ok = (String) s.invoke(NAME, "dump", new Object[] {"json", "mine.json"},
                    new String[] {"java.lang.String", "java.lang.String"});
            assertEquals(dir.resolve("mine.json").toString(), ok);
        }
    }

    @Test
    void badArgumentsGiveClearErrorsAndChangeNothing() throws Exception {
        try (TargetJvm target = target(List.of()); JMXConnector c = local(target.pid())) {
            MBeanServerConnection s = c.getMBeanServerConnection();
            assertRefused(s, "start", new Object[] {"30s", "512k", "1000"}, START, "not both");
            assertRefused(s, "start", new Object[] {"0", "512k", ""}, START, "duration must be positive");
            assertRefused(s, "start", new Object[] {"30s", "-1", ""}, START, "interval must be positive");
            assertRefused(s, "start", new Object[] {"30s", "1", ""}, START, "below the minimum of 4 KiB");
            assertRefused(s, "start", new Object[] {"", "", "", 9999, 0, "", 0, "", ""}, Jmx.START_ALL, "depth must be between 1 and");
            assertRefused(s, "dumpText", new Object[] {"pprof", "", 0L, false},
                    new String[] {"java.lang.String", "java.lang.String", "long", "boolean"}, "binary format");
            assertRefused(s, "topAllocations", new Object[] {1001}, new String[] {"int"}, "n must be between 1 and 1000");
            // JConsole's untouched 0 is the default number of rows, none while idle.
            assertEquals(0, ((CompositeData[]) s.invoke(NAME, "topAllocations", new Object[] {0}, new String[] {"int"})).length);
            assertRefused(s, "dumpBytes", new Object[] {"xml", "", 0L, false},
                    new String[] {"java.lang.String", "java.lang.String", "long", "boolean"}, "unknown format 'xml'");
            assertEquals("idle", s.getAttribute(NAME, "State"), "nothing changed");
        }
    }

    @Test
    void anMBeanUnregisteredByTheApplicationIsRegisteredAgainByTheCli() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("status", pid).exitCode());
            try (JMXConnector c = local(target.pid())) {
                c.getMBeanServerConnection().unregisterMBean(NAME);
            }
            Result again = HeaptapCli.run("status", pid);
            assertEquals(0, again.exitCode(), again::toString);
            assertTrue(again.stderr().contains("was unregistered"), again::toString);
            try (JMXConnector c = local(target.pid())) {
                assertTrue(c.getMBeanServerConnection().isRegistered(NAME));
            }
        }
    }

    static void assertRefused(MBeanServerConnection s, String op, Object[] args, String[] sig, String message) {
        RuntimeMBeanException e = assertThrows(RuntimeMBeanException.class, () -> s.invoke(NAME, op, args, sig), op);
        assertInstanceOf(IllegalArgumentException.class, e.getCause(), op);
        assertTrue(e.getCause().getMessage().contains(message), e.getCause().getMessage());
    }

    static long attribute(MBeanServerConnection s, String name) {
        try {
            return (Long) s.getAttribute(NAME, name);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static String string(MBeanServerConnection s, String name) {
        try {
            return (String) s.getAttribute(NAME, name);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
