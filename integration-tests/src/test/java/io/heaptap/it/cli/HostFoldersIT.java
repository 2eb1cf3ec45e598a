package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Http;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Jmx;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Allocator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.management.remote.JMXConnector;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The host's folders as production hosts have them (issue #34): a container's uid with no passwd
 * entry, another user squatting the dump folder's name, the CLI's own temporary folder full.
 * Root runs the tests: nobody (runuser) and uid 4242 (setpriv) are the other users.
 */
class HostFoldersIT {
    private static final Pattern TOKEN_FILE = Pattern.compile("needs the token in (\\S+?)( \\(|:)");
    private static final Pattern URL = Pattern.compile("serving at (http://\\S+)");
    private static final List<String> AS_4242 = List.of("setpriv", "--reuid", "4242", "--regid", "4242", "--clear-groups");

    @BeforeEach
    void asRoot() {
        assumeTrue("root".equals(System.getProperty("user.name")),
                "other users (nobody, uid 4242) and mounts need root (CI runs the tests as root)");
    }

    /** Item 7: OpenShift runs a container as an arbitrary uid with no name; user.name is "?". */
    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aUidWithNoPasswdEntryServesAndDumps(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.startWith(AS_4242, jdk, Allocator.class, List.of("-Djava.io.tmpdir=/tmp"))) {
            String pid = Long.toString(target.pid());
            Result serve = HeaptapCli.runWith(AS_4242, "serve", pid);
            assertEquals(0, serve.exitCode(), () -> "issue #34: heaptap refused the folder it had made: " + serve);
            Path token = tokenFile(serve);
            assertEquals(4242, (Integer) Files.getAttribute(token, "unix:uid"));
            assertEquals(4242, (Integer) Files.getAttribute(token.getParent(), "unix:uid"));
            Matcher url = URL.matcher(serve.out());
            assertTrue(url.find(), serve::toString);
            Http http = new Http(url.group(1), Files.readString(token).strip());
            assertEquals(200, http.get("/api/status").status());

            Result capture = HeaptapCli.runWith(AS_4242, "capture", pid, "--duration", "1s", "--format", "json");
            assertEquals(0, capture.exitCode(), capture::toString);
            Result status = HeaptapCli.runWith(AS_4242, "status", pid);
            assertEquals(0, status.exitCode(), status::toString);
            assertTrue(status.out().contains("dump folder:  " + token.getParent()), status::toString);
            try (JMXConnector jmx = Jmx.local(target.pid())) {
                Path dump = Path.of((String) jmx.getMBeanServerConnection().invoke(Jmx.NAME, "dump", new Object[] {"json"},
                        new String[] {"java.lang.String"}));
                assertEquals(token.getParent(), dump.getParent(), "issue #34: every MBean dump failed");
                assertEquals(4242, (Integer) Files.getAttribute(dump, "unix:uid"));
            }
        }
    }

    /**
     * A JVM killed with SIGKILL leaves its attach socket in /tmp. A later JVM of another user that gets
     * the same pid cannot delete it (sticky /tmp), and the Attach API refuses a socket not owned by the
     * attacher: heaptap names the file and who must delete it (CI once met this by pid reuse).
     */
    @Test
    void anAttachSocketAnotherUserLeftUnderThePidIsNamed() throws Exception {
        try (TargetJvm target = TargetJvm.startWith(AS_4242, Jdk.current(), Allocator.class, List.of())) {
            String pid = Long.toString(target.pid());
            Path leftover = Files.createFile(Path.of("/tmp", ".java_pid" + pid));
            try {
                OneLineErrors.assertOneLineError(HeaptapCli.runWith(AS_4242, "capture", pid, "--duration", "1s"), 4,
                        "its attach socket " + leftover + " belongs to root (uid 0), not to the JVM's uid 4242");
            } finally {
                Files.delete(leftover);
            }
            assertEquals(0, HeaptapCli.runWith(AS_4242, "capture", pid, "--duration", "1s").exitCode(),
                    "once deleted, the JVM makes its own socket");
        }
    }

    /** Item 12: one mkdir per pid (3 s for all of them) made the default serve and MBean dumps fail. */
    @ParameterizedTest
    @MethodSource("jdks")
    void aDumpFolderNameAnotherUserHoldsFallsBackToOneOfTheTargetsUser(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class, List.of("-Djava.io.tmpdir=/tmp"))) {
            Path squatted = Path.of("/tmp", "heaptap-" + target.pid());
            asNobody("mkdir -m 777 " + squatted);
            try {
                Http http = HttpEndpoint.serve(target.pid());
                assertEquals(200, http.get("/api/status").status(), "issue #34: a squatted name made serve fail");
                Result status = HeaptapCli.run("status", Long.toString(target.pid()));
                Matcher folder = Pattern.compile("dump folder:  (\\S+)").matcher(status.out());
                assertTrue(folder.find(), status::toString);
                Path used = Path.of(folder.group(1));
                assertTrue(used.getFileName().toString().startsWith("heaptap-" + target.pid() + "-"), used.toString());
                assertEquals(0, (Integer) Files.getAttribute(used, "unix:uid"));
                assertEquals(0, HeaptapCli.run("capture", Long.toString(target.pid()), "--duration", "1s").exitCode());
                try (JMXConnector jmx = Jmx.local(target.pid())) {
                    Path dump = Path.of((String) jmx.getMBeanServerConnection().invoke(Jmx.NAME, "dump", new Object[] {"json"},
                            new String[] {"java.lang.String"}));
                    assertEquals(used, dump.getParent());
                }
                try (var inSquatted = Files.list(squatted)) {
                    assertEquals(0, inSquatted.count(), "nothing went into nobody's folder");
                }
            } finally {
                new ProcessBuilder("rm", "-rf", squatted.toString()).start().waitFor();
            }
        }
    }

    /** Item 13: the CLI's own temporary folder full or read-only was exit 1, "internal error". */
    @Test
    void theClisTemporaryFolderFullOrReadOnlyIsAnEnvironmentProblem() throws Exception {
        Path tmp = Paths.workDir("small-tmp");
        run("mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", tmp.toString());
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            run("sh", "-c", "dd if=/dev/zero of=" + tmp.resolve("fill") + " bs=4k count=8 2>/dev/null; true");  // fills it
            List<String> withTmp = List.of("env", "JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=" + tmp);
            String pid = Long.toString(target.pid());
            OneLineErrors.assertOneLineError(HeaptapCli.runWith(withTmp, "capture", pid, "--duration", "1s"), 4,
                    "cannot write heaptap's native agent into " + tmp + " (java.io.tmpdir, heaptap's temporary folder): it is full");
            Files.delete(tmp.resolve("fill"));
            run("mount", "-o", "remount,ro", tmp.toString());
            OneLineErrors.assertOneLineError(HeaptapCli.runWith(withTmp, "capture", pid, "--duration", "1s"), 4,
                    "(java.io.tmpdir, heaptap's temporary folder): it is read-only");
            assertFalse(Files.exists(Path.of("/proc", pid, "maps")) && Files.readString(Path.of("/proc", pid, "maps"))
                    .contains("libheaptap"), "nothing was loaded");
        } finally {
            run("umount", tmp.toString());
        }
    }

    private static Path tokenFile(Result serve) {
        Matcher m = TOKEN_FILE.matcher(serve.out());
        assertTrue(m.find(), serve::toString);
        return Path.of(m.group(1));
    }

    private static void asNobody(String shell) throws Exception {
        run("runuser", "-u", "nobody", "--", "sh", "-c", shell);
    }

    private static void run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(1, TimeUnit.MINUTES) && p.exitValue() == 0, () -> String.join(" ", cmd) + ": " + said);
    }
}
