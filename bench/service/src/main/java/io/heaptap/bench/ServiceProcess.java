package io.heaptap.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The service's JVM: started on a given JDK with a fixed, pre-touched heap (as the bench's targets), ready
 * when it prints {@code ready port N}. Its console is read all the time (a full pipe would stall it) and
 * its last lines are kept for the error message if it dies.
 */
final class ServiceProcess implements AutoCloseable {
    private static final int KEPT_LINES = 40;
    private final Process process;
    private final Deque<String> lastLines = new ArrayDeque<>();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    ServiceProcess(BenchTarget.Jdk jdk, String classpath, List<String> jvmArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(jdk.bin("java").toString(), "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"));
        if (jdk.feature() >= 21) {
            cmd.add("-XX:+EnableDynamicAgentLoading");
        }
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", classpath, "io.heaptap.bench.service.ServiceApp"));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Thread reader = new Thread(this::readConsole, "service-console-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    private void readConsole() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null;) {
                if (line.startsWith("ready port ")) {
                    port.complete(Integer.parseInt(line.substring("ready port ".length()).trim()));
                }
                synchronized (lastLines) {
                    lastLines.addLast(line);
                    if (lastLines.size() > KEPT_LINES) {
                        lastLines.removeFirst();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            port.completeExceptionally(e);
        }
        port.completeExceptionally(new IOException("the service exited before it was ready"));
    }

    /** Waits until the service is ready; fails with its last console lines if it dies or takes too long. */
    InetSocketAddress awaitReady(long timeoutSeconds) throws IOException, InterruptedException {
        try {
            return new InetSocketAddress("127.0.0.1", port.get(timeoutSeconds, TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("the service (pid " + process.pid() + ") was not ready within " + timeoutSeconds + " s: "
                    + e.getMessage() + "\n" + console(), e);
        }
    }

    long pid() {
        return process.pid();
    }

    String console() {
        synchronized (lastLines) {
            return String.join("\n", lastLines);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
