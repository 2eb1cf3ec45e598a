package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.format.ProfileWriter;
import io.heaptap.session.CaptureOptions;
import io.heaptap.session.SamplerAccuracy;

import java.io.IOException;
import java.io.PrintStream;

/**
 * One capture from the CLI: start it in the target, show progress until the time box ends (or
 * Ctrl-C stops it), then stream the dump back and write it.
 */
final class CaptureRun {
    private static final long POLL_MILLIS = 200;

    private CaptureRun() {
    }

    static ExitCode run(AgentConnection connection, CaptureOptions options, Output output, LiveViewFlags liveView,
                        String client) throws IOException {
        HeaptapMXBean heaptap = connection.heaptap();
        PrintStream err = System.err;
        Interruption interruption = new Interruption().install();
        try {
            start(heaptap, options, client);
            if (System.console() != null) {
                err.printf("capturing pid %d for %s at %s (Ctrl-C stops early and still writes the profile)%n",
                        connection.target().pid(), HumanUnits.formatDuration(options.duration()), options.describeSampling());
            }
            ProgressBar bar = new ProgressBar(options.duration().toMillis());
            boolean interrupted = false;
            while ("recording".equals(heaptap.getState())) {
                bar.update(heaptap.getTimeLeftMillis(), heaptap.getSamples());
                if (interruption.await(POLL_MILLIS)) {
                    interrupted = true;
                    break;
                }
            }
            bar.clear();
            if (interrupted) {
                heaptap.stop();
            }
            write(connection, liveView.dump(heaptap), output);
            return interrupted ? ExitCode.INTERRUPTED : ExitCode.OK;
        } finally {
            interruption.finish();
        }
    }

    static void start(HeaptapMXBean heaptap, CaptureOptions options, String client) {
        heaptap.start(options.duration().toMillis() + "ms", options.sampling(), options.stackDepth(),
                options.maxStacks(), options.live(), options.liveBudget(), client);
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
