package io.heaptap.attach;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import io.heaptap.agent.AgentReply;
import io.heaptap.agent.CaptureRequest;
import io.heaptap.agent.StopRequest;
import io.heaptap.http.HttpEndpoint;
import io.heaptap.launcher.AgentLauncher;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Requests that ride on the Attach API alone: the request is the argument of a {@code loadAgent}
 * of heaptap.jar, the answer a system property of the target read back over the same connection.
 * No JMX agent is started in the target for them.
 */
public final class AttachRequests {
    private AttachRequests() {
    }

    /**
     * What a capture started through the agent's arguments reports: when sampling had begun and
     * when the first sample came (if asked), as {@link System#nanoTime()} values of the target, which
     * on Linux reads the same monotonic clock as this process.
     */
    public record Started(long startedNanos, Instant startedAt, Optional<Long> firstSampleNanos) {
    }

    /**
     * Where a target serves: its URL, and the owner-only file with the token it made (null when the
     * token was given), as the endpoint publishes them in {@value HttpEndpoint#URL_PROPERTY} and
     * {@value HttpEndpoint#TOKEN_FILE_PROPERTY}.
     */
    public record Served(String url, String tokenFile) {
    }

    /**
     * Starts a capture: the request rides on the {@code loadAgent} that loads heaptap.jar (again, if
     * it is there already). Sampling begins without waiting for a JMX agent; the MXBean is registered
     * in the target afterwards, for the commands that use JMX. A refusal is an {@link AttachException}
     * of the same kind the JMX path gives.
     *
     * @param firstSampleWait with {@code request.reportFirstSample()}, how long to poll for the first sample
     */
    public static Started startCapture(Target target, CaptureRequest request, Duration firstSampleWait, AttachPhases phases) {
        return AttachedVm.with(target, phases, attached -> {
            attached.checkJavaRelease();
            boolean loadedNow = !ProcFiles.heaptapLoaded(target.pid()).orElse(true);
            attached.loadAgent(request.encode(), null);
            Properties props = attached.systemProperties();
            String replyText = props.getProperty(AgentReply.property(request.reply()));
            if (replyText == null) {
                String error = props.getProperty(AgentLauncher.ERROR_PROPERTY);
                throw new CannotAttachException(target.pid(), "pid " + target.pid() + " did not start heaptap"
                        + (error == null ? " (no answer from its agent)" : ": " + error));
            }
            AgentReply reply = decodeReply(target, replyText);
            switch (reply.outcome()) {
                case STARTED -> { }
                case REFUSED -> throw new TargetRefusedException(target.pid(), "pid " + target.pid() + " refused: " + reply.message());
                case BAD_OPTIONS -> throw new BadOptionsException(target.pid(), reply.message());
                case FAILED -> throw new AgentFailedException(target.pid(), "pid " + target.pid() + " failed to start the capture: "
                        + reply.message() + " (please report this with the command you ran)");
            }
            Optional<Long> first = request.reportFirstSample()
                    ? firstSample(attached.vm(), request.reply(), firstSampleWait) : Optional.empty();
            // The target's clock places its own moments among this process's phases.
            AgentReply.Moments moments = reply.moments();
            if (moments.entered() != 0) {
                phases.markAt(loadedNow ? "heaptap.jar load (JDK's agent load, launcher, private loader; in the target)"
                        : "agent entry again (in the target; heaptap was loaded already)", moments.entered());
                phases.markAt("request and options parsed (in the target)", moments.parsed());
                phases.markAt(loadedNow ? "controller made (native agent bound, GC beans, budget; in the target)"
                        : "controller reused (in the target)", moments.ready());
                phases.markAt("capture start (live tracking, native sampling on; in the target)", reply.startedNanos());
            } else {
                phases.markAt(loadedNow ? "heaptap.jar load and capture start (in the target)"
                        : "capture start (in the target; heaptap was loaded already)", reply.startedNanos());
            }
            first.ifPresent(at -> phases.markAt("first sample in the target", at));
            phases.mark(!request.reportFirstSample() || first.isPresent() ? "answer read back (Attach API round trips)"
                    : "first sample: none within " + firstSampleWait.toMillis() + " ms (does the target allocate?)");
            return new Started(reply.startedNanos(), reply.startedAt(), first);
        });
    }

    private static AgentReply decodeReply(Target target, String text) {
        try {
            return AgentReply.decode(text);
        } catch (IllegalArgumentException e) {
            throw new AgentFailedException(target.pid(), "pid " + target.pid() + " answered in a way this heaptap cannot read ("
                    + e.getMessage() + "): does it run another heaptap version?");
        }
    }

    /**
     * Stops a capture {@link #startCapture} started, if it still runs; for a CLI that cannot follow
     * the capture it started. Best effort: a target that is gone or refuses has nothing more to stop,
     * and the CLI's own error is the one to report.
     */
    public static void stopCapture(Target target, Started started, String reason) {
        if (!ProcessHandle.of(target.pid()).map(ProcessHandle::isAlive).orElse(false)) {
            return;
        }
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
            try {
                vm.loadAgent(AttachedVm.heaptapJar().toString(), new StopRequest(started.startedAt(), reason).encode());
            } finally {
                VmAttach.detachQuietly(vm);
            }
        } catch (IOException | AttachNotSupportedException | AgentLoadException | AgentInitializationException ignored) {
            // nothing more to stop
        }
    }

    /**
     * Starts the HTTP endpoint through the agent's arguments ({@code serve,port=...}), for a
     * target whose MBeanServer refuses heaptap's MBean, and says where it serves.
     */
    public static Served serveWithoutJmx(Target target, String serveArguments) {
        return AttachedVm.with(target, AttachPhases.NONE, attached -> {
            attached.loadAgent(serveArguments, AttachedVm.JAR_PHASE);
            Properties props = attached.systemProperties();
            String url = props.getProperty(HttpEndpoint.URL_PROPERTY);
            if (url == null) {
                String error = props.getProperty(AgentLauncher.ERROR_PROPERTY);
                throw new TargetRefusedException(target.pid(), "pid " + target.pid() + " could not serve"
                        + (error == null ? "" : ": " + error));
            }
            return new Served(url, props.getProperty(HttpEndpoint.TOKEN_FILE_PROPERTY));
        });
    }

    /** Polls the target's properties (one Attach API round trip every 2 ms) for its first-sample time. */
    private static Optional<Long> firstSample(VirtualMachine vm, String reply, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos() + TimeUnit.MILLISECONDS.toNanos(200);
        while (System.nanoTime() < deadline) {
            String value = vm.getSystemProperties().getProperty(AgentReply.firstSampleProperty(reply));
            if (value != null) {
                return value.matches("[0-9]{1,19}") ? Optional.of(Long.parseLong(value)) : Optional.empty();
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
