package io.heaptap.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A real target JVM started by a test: a workload class from the test classes, on a chosen JDK.
 * Its stdout lines are queued for {@link #awaitLine}; commands go to its stdin. Workloads say
 * what they are doing on stdout, which is how tests synchronise with them (never by sleeping).
 */
public final class TargetJvm implements AutoCloseable {
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer stdout = new StringBuffer();
    private final StringBuffer stderr = new StringBuffer();

    private TargetJvm(Process process) {
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(process.getInputStream(), stdout, true);
        pump(process.getErrorStream(), stderr, false);
    }

    public static TargetJvm start(Jdk jdk, Class<?> main, List<String> jvmArgs, String... args) throws IOException {
        return startWith(List.of(), jdk, main, jvmArgs, args);
    }

    /** Started through a prefix command, such as {@code setpriv --reuid 4242 ...} for a uid with no passwd entry. */
    public static TargetJvm startWith(List<String> prefix, Jdk jdk, Class<?> main, List<String> jvmArgs, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(jdk.java().toString());
        cmd.add("-Xmx256m");
        if (jdk.feature() >= 21) {
            cmd.add("-XX:+EnableDynamicAgentLoading");
        }
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(Paths.workloadClassPath());
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        Process process = new ProcessBuilder(cmd).start();
        clearLeftoversOfEarlierJvms(process);
        TargetJvm jvm = new TargetJvm(process);
        jvm.awaitLine("ready", Duration.ofSeconds(30));
        return jvm;
    }

    public static TargetJvm start(Jdk jdk, Class<?> main, String... args) throws IOException {
        return start(jdk, main, List.of(), args);
    }

    /**
     * Lowers the CPU priority (to nice 10) of the target's threads whose names start with {@code prefix}:
     * a workload's threads that keep every core busy. They still race each other, the collector and
     * heaptap's sampling in them; what changes is that each heaptap command the test runs (a JVM start,
     * ~1 s of CPU) no longer queues behind them for its share of the 2 cores (behind 32 such threads one
     * command took 15 s), nor does heaptap's own work in the target (attach, JMX, dumps: nice 0 as before).
     */
    public void lowerPriorityOf(String prefix) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("renice", "-n", "10", "-p"));
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid()), "task"))) {
            for (Path task : tasks) {
                if (Files.readString(task.resolve("comm")).startsWith(prefix)) {
                    cmd.add(task.getFileName().toString());
                }
            }
        }
        if (cmd.size() == 4) {
            throw new AssertionError("no thread named " + prefix + "* in pid " + pid());
        }
        Process renice = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (renice.waitFor() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed: exit " + renice.exitValue());
        }
    }

    private void pump(InputStream in, StringBuffer all, boolean queue) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    all.append(line).append('\n');
                    if (queue) {
                        lines.add(line);
                    }
                }
            } catch (IOException e) {
                // process gone
            }
        }, "target-output-" + process.pid());
        t.setDaemon(true);
        t.start();
    }

    public long pid() {
        return process.pid();
    }

    /** Waits for the next stdout line that starts with prefix; fails the test on timeout or exit. */
    public String awaitLine(String prefix, Duration timeout) {
        return awaitLine(line -> line.startsWith(prefix), "'" + prefix + "'", timeout);
    }

    /** Waits for the next stdout line that holds text anywhere (a line of the JVM's own log, say). */
    public String awaitLineContaining(String text, Duration timeout) {
        return awaitLine(line -> line.contains(text), "a line with '" + text + "'", timeout);
    }

    private String awaitLine(Predicate<String> wanted, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                String line = lines.poll(Math.max(0, Math.min(left, TimeUnit.MILLISECONDS.toNanos(500))), TimeUnit.NANOSECONDS);
                if (line != null && wanted.test(line)) {
                    return line;
                }
                if (line == null && !process.isAlive() && lines.isEmpty()) {
                    throw new AssertionError("target exited (" + process.exitValue() + ") before printing " + what + "; stderr:\n" + stderr);
                }
                if (left <= 0) {
                    throw new AssertionError("target did not print " + what + " within " + timeout + "; stderr:\n" + stderr);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public void send(String command) throws IOException {
        stdin.write(command + "\n");
        stdin.flush();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Process process() {
        return process;
    }

    public String stdout() {
        return stdout.toString();
    }

    public String stderr() {
        return stderr.toString();
    }

    /**
     * The tests start thousands of processes and threads, so pids wrap: a new target can get the pid of an
     * earlier JVM whose dump folder (/tmp/heaptap-PID) or attach socket (SIGKILL leaves it) is still there,
     * perhaps another user's. Whatever of that name is older than this process is an earlier JVM's.
     */
    private static void clearLeftoversOfEarlierJvms(Process process) throws IOException {
        Instant started = process.info().startInstant().orElse(Instant.now()).minusSeconds(1);
        for (Path leftover : List.of(Path.of("/tmp", "heaptap-" + process.pid()), Path.of("/tmp", ".java_pid" + process.pid()))) {
            try {
                if (Files.getLastModifiedTime(leftover, LinkOption.NOFOLLOW_LINKS).toInstant().isBefore(started)) {
                    deleteTree(leftover);
                }
            } catch (NoSuchFileException none) {
                // nothing left there
            }
        }
    }

    private static void deleteTree(Path path) throws IOException {
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> inside = Files.list(path)) {
                for (Path p : (Iterable<Path>) inside::iterator) {
                    deleteTree(p);
                }
            }
        }
        Files.deleteIfExists(path);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        // SIGKILL leaves the attach socket behind. A later JVM of another user that gets the same pid
        // cannot delete it, and nothing can attach to that JVM (HostFoldersIT met this by pid reuse).
        try {
            Files.deleteIfExists(Path.of("/tmp", ".java_pid" + process.pid()));
        } catch (IOException e) {
            // another user's JVM got the pid already, or /tmp is not ours: nothing of ours to clean
        }
    }
}
