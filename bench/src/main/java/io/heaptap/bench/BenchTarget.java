package io.heaptap.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A target JVM of the suite, driven over its stdin/stdout protocol. */
final class BenchTarget implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    final Jdk jdk;

    record Jdk(String name, Path home, int feature) {
        Path bin(String tool) {
            return home.resolve("bin").resolve(tool);
        }
    }

    BenchTarget(Jdk jdk, Path classes, Class<?> main, List<String> jvmArgs) throws IOException {
        this.jdk = jdk;
        List<String> cmd = new ArrayList<>(List.of(jdk.bin("java").toString(), "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"));
        if (jdk.feature() >= 21) {
            cmd.add("-XX:+EnableDynamicAgentLoading");
        }
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", classes.toString(), main.getName()));
        process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        expect("ready");
    }

    long pid() {
        return process.pid();
    }

    /**
     * What the target measured over a window: operations per second, GC pause time, and the whole
     * process's CPU time per operation. On a shared machine the throughput moves with everything
     * else running; the CPU an operation costs barely does, so it judges a tool's cost there.
     */
    record Window(double opsPerSecond, long pauseMillis, double cpuNanosPerOp) {
    }

    Window window(long millis) throws IOException {
        in.write("measure " + millis + "\n");
        in.flush();
        String[] words = expect("rate ").split(" ");
        return new Window(Double.parseDouble(words[1]), Long.parseLong(words[3]), Double.parseDouble(words[5]));
    }

    /** Sends a target's own command and returns its reply line (the first that starts with {@code reply}). */
    String command(String command, String reply) throws IOException {
        in.write(command + "\n");
        in.flush();
        return expect(reply);
    }

    /** Operations per second over a window of the target's own measurement. */
    double measure(long millis) throws IOException {
        return window(millis).opsPerSecond();
    }

    private String expect(String prefix) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new IOException("bench target " + process.pid() + " exited before printing '" + prefix + "'");
    }

    long rssKiB() throws IOException {
        return statusField("VmRSS:");
    }

    long threads() throws IOException {
        return statusField("Threads:");
    }

    private long statusField(String name) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
            if (line.startsWith(name)) {
                return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
            }
        }
        throw new IOException(name + " not in /proc/" + pid() + "/status");
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
