package io.heaptap.cli;

import io.heaptap.agent.CaptureRequest;
import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.AttachPhases;
import io.heaptap.attach.AttachRequests;
import io.heaptap.attach.CaptureProgress;
import io.heaptap.attach.Target;
import io.heaptap.exit.ExitCode;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.format.ProfileWriter;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.SamplerAccuracy;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One capture from the CLI: start it in the target (Attach API), show progress until the time box
 * ends or Ctrl-C stops it (JMX), then stream the dump back and write it.
 */
final class CaptureRun {
    private static final long POLL_MILLIS = 200;
    /** The banner's time of day when sampling began. */
    private static final DateTimeFormatter BEGAN = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    private CaptureRun() {
    }

    /**
     * Starts the capture with the Attach API alone, so sampling begins before any JMX; the caller
     * then follows it over JMX ({@link #follow}) and, if it cannot, stops it ({@link AttachRequests#stopCapture}).
     */
    static AttachRequests.Started start(Target target, CaptureOptions options, String client) {
        return AttachRequests.startCapture(target, new CaptureRequest(options, client, StartCommand.replyId(), false),
                Duration.ZERO, AttachPhases.NONE);
    }

    /**
     * Shows progress until the started capture's time box ends (or Ctrl-C, seen through
     * {@code interruption}, stops it), then streams the dump back and writes it. The banner says
     * when sampling began: the JMX connection that follows the capture comes after that, and takes
     * longest on a busy target's first attach, so sampling may have run for a while when the bar shows.
     */
    static ExitCode follow(AgentConnection connection, AttachRequests.Started started, CaptureOptions options, Output output,
                           LiveViewFlags liveView, Interruption interruption) throws IOException {
        HeaptapMXBean heaptap = connection.heaptap();
        PrintStream err = System.err;
        if (System.console() != null) {
            err.println(banner(connection.target().pid(), options, started.startedAt(), System.nanoTime() - started.startedNanos(),
                    ZoneId.systemDefault()));
        }
        ProgressBar bar = new ProgressBar(options.duration().toMillis());
        boolean interrupted = interruption.requested();
        CaptureProgress progress;
        while (!interrupted && (progress = connection.progress()).recording()) {
            bar.update(progress.timeLeftMillis(), progress.samples());
            interrupted = interruption.await(POLL_MILLIS);
        }
        bar.clear();
        if (interrupted) {
            heaptap.stop();
        }
        write(connection, liveView.dump(heaptap, output.format()), output);
        return interrupted ? ExitCode.INTERRUPTED : ExitCode.OK;
    }

    /** The line above the progress bar: what runs, and when its sampling began, in local time and as a lag. */
    static String banner(long pid, CaptureOptions options, Instant startedAt, long sinceStartNanos, ZoneId zone) {
        return String.format(Locale.ROOT, "capturing pid %d for %s at %s; sampling began at %s (%.1f s ago)."
                        + " Ctrl-C stops early and still writes the profile",
                pid, HumanUnits.formatDuration(options.duration()), options.describeSampling(),
                BEGAN.format(startedAt.atZone(zone)), Math.max(0, sinceStartNanos) / 1e9);
    }

    /**
     * Encodes a profile here, in the CLI, straight into the output, and says so (with the accuracy
     * warning) unless the table went to the terminal.
     */
    static void write(AgentConnection connection, AllocationProfile profile, Output output) throws IOException {
        long bytes = output.write(out -> ProfileWriter.of(output.format()).write(profile, out));
        if (!OutputFlags.quiet(output)) {
            SamplerAccuracy.warningFor(connection.targetFeature()).ifPresent(w -> System.err.println("heaptap: warning: " + w));
        }
        if (output.file() != null) {
            System.err.printf("heaptap: wrote %s (%s, %s)%n", output.file(), output.format().id(),
                    HumanUnits.formatBytes(bytes));
        }
    }
}
