package io.heaptap.bench;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import io.heaptap.agent.jmx.OwnConnector;
import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.TargetResolver;
import io.heaptap.jmx.StatusView;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the external commands of the suite (heaptap, jcmd) and times them. */
final class Commands {
    private final Path java;
    private final Path heaptapJar;

    Commands(Path java, Path heaptapJar) {
        this.java = java;
        this.heaptapJar = heaptapJar;
    }

    /**
     * heaptap's whole status in the target, read as data (the MXBean's Status composite, one JMX
     * read) rather than scraped from the text of {@code heaptap status}. heaptap is loaded already.
     */
    StatusView status(String pid) {
        awaitConnector(pid);
        try (AgentConnection connection = AgentConnection.open(TargetResolver.resolve(pid))) {
            return connection.heaptap().getStatus();  // a local copy: usable after the connection closes
        }
    }

    /**
     * heaptap's JMX connector starts on a thread of its own after a capture's reply. The CLI, run from its jar, loads
     * heaptap again to start it when it is not up yet; this in-process client has no jar to load (its classes come
     * from a class path), so it waits for the connector instead: on a loaded machine the first status came first.
     */
    private static void awaitConnector(String pid) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try {
            while (true) {
                VirtualMachine vm = VirtualMachine.attach(pid);
                try {
                    if (vm.getSystemProperties().getProperty(OwnConnector.URL_PROPERTY) != null) {
                        return;
                    }
                } finally {
                    vm.detach();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("heaptap's JMX connector did not start in pid " + pid + " within 30 s");
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
        } catch (AttachNotSupportedException | IOException e) {
            throw new IllegalStateException("cannot read pid " + pid + "'s system properties: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for heaptap's connector in pid " + pid, e);
        }
    }

    /** Runs heaptap; returns its wall time in milliseconds; fails on a non-zero exit. */
    double heaptap(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-jar", heaptapJar.toString()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    String heaptapOutput(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-jar", heaptapJar.toString()));
        cmd.addAll(List.of(args));
        return output(cmd);
    }

    /**
     * Loads (or re-enters) a native agent with {@code jcmd JVMTI.agent_load}. The options are quoted:
     * jcmd's own parser would otherwise take "start,event=alloc" for a key=value pair of its own and
     * hand the agent a mangled string (async-profiler then fails with "event must not be empty",
     * while jcmd still exits 0). The JVM prints the agent's return code, which must be 0.
     */
    void agentLoad(Path jcmd, long pid, Path library, String options) throws IOException, InterruptedException {
        String out = output(List.of(jcmd.toString(), Long.toString(pid), "JVMTI.agent_load", library.toString(),
                "\"" + options + "\""));
        if (!out.contains("return code: 0")) {
            throw new IOException("agent " + library + " refused '" + options + "':\n" + out);
        }
    }

    double run(List<String> cmd) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        output(cmd);
        return (System.nanoTime() - t0) / 1e6;
    }

    String output(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed:\n" + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
