package io.heaptap.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** heaptap.jar run exactly as a user runs it: {@code java -jar heaptap.jar ...}, in its own process. */
public final class HeaptapCli {
    static final Duration TIMEOUT = Duration.ofMinutes(3);

    private HeaptapCli() {
    }

    /**
     * What a finished command left.
     *
     * @param exitCode its exit code
     * @param stdout   stdout as bytes (pprof is binary)
     * @param stderr   stderr as text
     */
    public record Result(int exitCode, byte[] stdout, String stderr) {
        public String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + (stdout.length > 4000 ? out().substring(0, 4000) + "..." : out())
                    + "\n--- stderr\n" + stderr;
        }
    }

    public static Result run(String... args) {
        return finish(start(List.of(), args));
    }

    /** Runs heaptap as another user (the tests run as root). */
    public static Result runAs(String user, String... args) {
        return finish(start(List.of("runuser", "-u", user, "--"), args));
    }

    /** Runs heaptap through a prefix command: {@code setpriv ...} for another uid, {@code env JAVA_TOOL_OPTIONS=...}. */
    public static Result runWith(List<String> prefix, String... args) {
        return finish(start(prefix, args));
    }

    /** Starts heaptap without waiting; the caller owns the process. */
    public static Process start(String... args) {
        return start(List.of(), args);
    }

    /**
     * Starts heaptap with SIGINT at its default disposition, as in a terminal. A process started in
     * the background by a non-interactive shell inherits SIGINT as ignored, and the JVM then
     * ignores Ctrl-C too; the test of Ctrl-C must not depend on how the build was launched.
     */
    public static Process startLikeATerminal(String... args) {
        return start(List.of("env", "--default-signal=INT"), args);
    }

    private static Process start(List<String> prefix, String... args) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Jdk.current().java().toString());
        cmd.add("-jar");
        cmd.add(Paths.heaptapJar().toString());
        cmd.addAll(List.of(args));
        try {
            return new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for a started heaptap to end and collects what it printed. */
    public static Result finish(Process p) {
        try {
            p.getOutputStream().close();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Thread o = copy(p.getInputStream(), out);
            Thread e = copy(p.getErrorStream(), err);
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("heaptap did not finish within " + TIMEOUT);
            }
            o.join();
            e.join();
            return new Result(p.exitValue(), out.toByteArray(), err.toString(StandardCharsets.UTF_8));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    private static Thread copy(InputStream in, ByteArrayOutputStream to) {
        Thread t = new Thread(() -> {
            try (in) {
                in.transferTo(to);
            } catch (IOException ignored) {
                // process gone
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }
}
