package io.heaptap.it.cli;

import static io.heaptap.it.support.OneLineErrors.assertOneLineError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.tools.attach.VirtualMachine;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Quiet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * #36: a class census asked for by another local OS user is refused like every other request, through every
 * door heaptap serves it on, while heaptap is loaded and serving in the target: the CLI's {@code census}
 * (the Attach API refuses the user: exit 4, one line naming the owner), {@code POST /api/census} (401 without
 * the token, which the user cannot read) and the MBean's {@code classCensus} over heaptap's own JMX connector
 * (refused by its key check). The target is unharmed: alive, and no forced collection ran (Serial's full
 * collections are counted; the target allocates next to nothing, so only a census would run one, as the
 * owner's census at the end shows).
 */
class CensusAccessIT {
    static final ObjectName FULL_GCS = Jmx.objectName("java.lang:type=GarbageCollector,name=MarkSweepCompact");

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.heaptap.it.support.Jdk#all")
    void anotherUsersCensusIsRefusedOnEveryDoorAndTheTargetIsUnharmed(Jdk jdk) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")),
                "this test runs heaptap's client as user nobody through runuser, which needs root (CI runs the tests as root)");
        try (TargetJvm target = TargetJvm.start(jdk, Quiet.class, List.of("-XX:+UseSerialGC", "-Xmx256m"))) {
            String pid = Long.toString(target.pid());
            Http http = HttpEndpoint.serve(target.pid());
            // The owner's CLI connects once, so heaptap's own JMX connector runs too.
            assertEquals(0, HeaptapCli.run("status", pid).exitCode());
            String jmxUrl = systemProperty(target.pid(), "heaptap.jmx.url");
            assertTrue(jmxUrl != null && jmxUrl.startsWith("service:jmx:rmi:"), "heaptap's connector runs: " + jmxUrl);
            long fullGcs = fullCollections(target.pid());

            // The CLI: the Attach API refuses another user, before anything reaches the target.
            for (List<String> args : List.of(List.of("census", pid), List.of("census", pid, "--top", "5", "--format", "json"))) {
                Result r = HeaptapCli.runAs("nobody", args.toArray(String[]::new));
                assertOneLineError(r, 4, "belongs to user 'root'");
                assertTrue(r.stderr().contains("sudo -u root"), r::toString);
                assertFalse(r.out().contains("class census"), r::toString);
            }

            // HTTP: without the token (which nobody cannot read), and with a guessed one.
            String census = http.uri().resolve("/api/census?n=5").toString();
            for (List<String> auth : List.of(List.<String>of(), List.of("-H", "Authorization: Bearer guess"), List.of("-u", "heaptap:guess"))) {
                List<String> curl = new ArrayList<>(List.of("curl", "-s", "-m", "30", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST"));
                curl.addAll(auth);
                curl.add(census);
                assertEquals("401", asNobody(curl).strip(), "POST /api/census as nobody with " + auth);
            }

            // The MBean over heaptap's own connector: without its key, and with a guessed one.
            Path client = nobodysJmxClient();
            String said;
            try {
                said = asNobody(List.of(jdk.java().toString(), client.toString(), jmxUrl, Paths.heaptapJar().toString()));
            } finally {
                Files.delete(client);
                Files.delete(client.getParent());
            }
            System.out.println("CensusAccessIT " + jdk + ", nobody over heaptap's JMX connector:\n" + said.strip());
            // Refused by the key check itself (the client has heaptap's classes, as the CLI does), not by anything before it.
            assertTrue(said.contains("no key: refused: java.lang.SecurityException") && said.contains("guessed key: refused: java.lang.SecurityException")
                    && !said.contains("census:"), said);

            // Unharmed: alive, and no collection was forced (no census ran).
            assertTrue(target.isAlive());
            assertEquals(fullGcs, fullCollections(target.pid()), "another user's census forced no collection");
            // The owner's census runs, and its forced collection is counted: the check above can see one.
            Result own = HeaptapCli.run("census", pid, "--top", "3");
            assertEquals(0, own.exitCode(), own::toString);
            assertTrue(fullCollections(target.pid()) > fullGcs, "the owner's census forced a collection");
        }
    }

    private static long fullCollections(long pid) throws Exception {
        try (JMXConnector c = Jmx.local(pid)) {
            MBeanServerConnection server = c.getMBeanServerConnection();
            return ((Number) server.getAttribute(FULL_GCS, "CollectionCount")).longValue();
        }
    }

    private static String systemProperty(long pid, String name) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            return vm.getSystemProperties().getProperty(name);
        } finally {
            vm.detach();
        }
    }

    /** A JMX client in one source file that nobody can read and run ({@code java Client.java URL}). */
    private static Path nobodysJmxClient() throws Exception {
        Path dir = Files.createTempDirectory("heaptap-nobody", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path file = dir.resolve("NobodysCensus.java");
        Files.writeString(file, """
                import java.net.URI;
                import java.net.URL;
                import java.net.URLClassLoader;
                import java.nio.file.Path;
                import java.util.HashMap;
                import java.util.Map;
                import javax.management.ObjectName;
                import javax.management.remote.JMXConnector;
                import javax.management.remote.JMXConnectorFactory;
                import javax.management.remote.JMXServiceURL;

                public class NobodysCensus {
                    public static void main(String[] args) throws Exception {
                        // heaptap's classes, as its CLI has them: the connector's stubs name its socket factory.
                        ClassLoader heaptap = new URLClassLoader(new URL[] {
                                URI.create("jar:" + Path.of(args[1]).toUri() + "!/HEAPTAP-INF/classes/").toURL()});
                        try_("no key", args[0], heaptap, null);
                        try_("guessed key", args[0], heaptap, new String[] {"heaptap", "guess"});
                    }

                    static void try_(String what, String url, ClassLoader loader, String[] credentials) {
                        Map<String, Object> env = new HashMap<>();
                        env.put("jmx.remote.default.class.loader", loader);
                        if (credentials != null) {
                            env.put(JMXConnector.CREDENTIALS, credentials);
                        }
                        try (JMXConnector c = JMXConnectorFactory.connect(new JMXServiceURL(url), env)) {
                            Object r = c.getMBeanServerConnection().invoke(new ObjectName("io.heaptap:type=Heaptap"), "classCensus",
                                    new Object[] {5, "text"}, new String[] {"int", "java.lang.String"});
                            System.out.println(what + ": census: " + r);
                        } catch (Exception e) {
                            System.out.println(what + ": refused: " + e);
                        }
                    }
                }
                """, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    private static String asNobody(List<String> command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("runuser", "-u", "nobody", "--"));
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "runuser " + cmd + " did not finish");
        return out;
    }
}
