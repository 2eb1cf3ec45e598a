package io.heaptap.it.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Allocator;
import io.heaptap.it.workload.MainReturns;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * heaptap's CLI talks to its own JMX connector in the target, whose serving threads are heaptap's:
 * the RMI work of answering the CLI is not among the application's sites, while the same requests
 * through the JVM's own connector (JConsole's) are. The connector takes only the key in its owner-only
 * file, and it does not keep a JVM alive whose main has returned.
 */
class OwnConnectorIT {
    /**
     * Frames that only serving a JMX request over RMI puts on a stack, once the serving thread has the socket.
     * Not the connection handler's start: before it touches the socket, RMI names the thread and, on a new pool
     * thread, makes its thread-local map (about 100 bytes a connection, unmarked; docs/internals.md).
     */
    static final List<String> SERVING_FRAMES = List.of("sun.rmi.transport.tcp.TCPTransport.handleMessages",
            "javax.management.remote.rmi.RMIConnectionImpl", "sun.rmi.server.MarshalInputStream");

    static final ObjectName MEMORY = Jmx.objectName("java.lang:type=Memory");

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theClisRequestsAreNotTheApplicationsAllocations(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            // Dense sampling (one sample per 4 KiB), so a few requests' unmarshalling could not go unseen.
            Result started = HeaptapCli.run("start", pid, "--duration", "5m", "--interval", "4k", "--no-live");
            assertEquals(0, started.exitCode(), started::toString);
            for (int i = 0; i < 10; i++) {
                Result status = HeaptapCli.run("status", pid);
                assertEquals(0, status.exitCode(), status::toString);
            }
            List<String> afterCli = collapsed(pid);
            assertTrue(afterCli.stream().anyMatch(l -> l.contains("Allocator.allocateBuffer")), () -> String.join("\n", afterCli));
            List<String> serving = servingStacks(afterCli);
            assertTrue(serving.isEmpty(), () -> "heaptap's own JMX requests were sampled as the application's:\n"
                    + String.join("\n", serving));

            // The control: the same kind of requests through the JVM's own connector are the application's
            // (a monitoring tool's, JConsole's), and this capture sees them.
            try (JMXConnector jconsole = Jmx.local(target.pid())) {
                MBeanServerConnection server = jconsole.getMBeanServerConnection();
                for (int i = 0; i < 200; i++) {
                    server.getAttribute(MEMORY, "HeapMemoryUsage");
                }
            }
            List<String> afterJConsole = servingStacks(collapsed(pid));
            assertTrue(!afterJConsole.isEmpty(), "requests through the JVM's own connector were not seen: the check above"
                    + " would pass without heaptap's connector too");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void theConnectorTakesOnlyItsKey(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("status", pid).exitCode());
            Properties props = systemProperties(target.pid());
            String url = props.getProperty("heaptap.jmx.url");
            assertNotNull(url, props::toString);
            assertTrue(url.startsWith("service:jmx:rmi://127.0.0.1/stub/"), url);
            String keyFile = props.getProperty("heaptap.jmx.keyFile");
            assertNotNull(keyFile, props::toString);
            String key = Files.readString(Path.of(keyFile), StandardCharsets.US_ASCII).trim();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(keyFile))), keyFile);

            JMXServiceURL address = new JMXServiceURL(url);
            assertThrows(SecurityException.class, () -> JMXConnectorFactory.connect(address).close(), "no credentials");
            assertThrows(SecurityException.class, () -> JMXConnectorFactory.connect(address,
                    Map.of(JMXConnector.CREDENTIALS, new String[] {"heaptap", key.substring(1) + "0"})).close(), "a wrong key");
            try (JMXConnector right = JMXConnectorFactory.connect(address,
                    Map.of(JMXConnector.CREDENTIALS, new String[] {"heaptap", key}))) {
                assertTrue(right.getMBeanServerConnection().isRegistered(Jmx.NAME));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aJvmWhoseMainReturnsStillEnds(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, MainReturns.class)) {
            Result status = HeaptapCli.run("status", Long.toString(target.pid()));
            assertEquals(0, status.exitCode(), status::toString);
            assertNotNull(systemProperties(target.pid()).getProperty("heaptap.jmx.url"), "heaptap's connector runs");
            target.send("return");
            target.awaitLine("returning", Duration.ofSeconds(30));
            assertTrue(target.process().waitFor(60, TimeUnit.SECONDS),
                    "the JVM did not end after main returned: heaptap's connector keeps it alive");
        }
    }

    private static List<String> collapsed(String pid) {
        Result dump = HeaptapCli.run("dump", pid, "--format", "collapsed");
        assertEquals(0, dump.exitCode(), dump::toString);
        return new String(dump.stdout(), StandardCharsets.UTF_8).lines().toList();
    }

    private static List<String> servingStacks(List<String> collapsed) {
        return collapsed.stream().filter(l -> SERVING_FRAMES.stream().anyMatch(l::contains)).toList();
    }

    private static Properties systemProperties(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            return vm.getSystemProperties();
        } finally {
            vm.detach();
        }
    }
}
