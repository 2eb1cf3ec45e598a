package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.AttachPhases;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.exit.ExitCode;
import io.heaptap.profile.HumanUnits;
import io.heaptap.session.CaptureOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Start a capture in the target and return; it stops by itself when its time box ends.")
final class StartCommand extends TargetCommand {
    @Mixin
    CaptureFlags capture;

    @Option(names = "--verbose", description = "Print where the time went: each phase of reaching the target, starting"
            + " the capture, and the wait for its first sample (on stderr).")
    boolean verbose;

    /** How long --verbose waits for the first sample before it says none came. */
    static final long FIRST_SAMPLE_WAIT_MILLIS = 2_000;

    private CaptureOptions options;
    private AttachPhases phases;

    @Override
    AttachPhases phases() {
        if (phases == null) {
            phases = verbose ? AttachPhases.sinceProcessStart() : AttachPhases.NONE;
        }
        return phases;
    }

    @Override
    void validate() {
        options = capture.options();
    }

    @Override
    ExitCode run(AgentConnection connection) throws InterruptedException {
        CaptureRun.start(connection.heaptap(), options, client("start"));
        if (verbose) {
            phases.mark("start the capture (one JMX call)");
            phases.mark(awaitFirstSample(connection.heaptap()) ? "first sample in the target"
                    : "first sample: none within " + FIRST_SAMPLE_WAIT_MILLIS + " ms (does the target allocate?)");
            phases.print(System.err);
        }
        Terminal.printf("started a capture in pid %d: %s at %s; 'heaptap dump %d' reads it%n",
                connection.target().pid(), HumanUnits.formatDuration(options.duration()), options.describeSampling(),
                connection.target().pid());
        return ExitCode.OK;
    }

    /** Polls the sample count (one JMX call every 2 ms) until a sample is in, or the wait ends. */
    private static boolean awaitFirstSample(HeaptapMXBean heaptap) throws InterruptedException {
        long deadline = System.nanoTime() + FIRST_SAMPLE_WAIT_MILLIS * 1_000_000;
        while (heaptap.getSamples() == 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(2);
        }
        return true;
    }
}
