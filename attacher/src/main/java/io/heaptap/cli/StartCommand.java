package io.heaptap.cli;

import io.heaptap.agent.CaptureRequest;
import io.heaptap.attach.AttachPhases;
import io.heaptap.attach.AttachRequests;
import io.heaptap.attach.Target;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.profile.HumanUnits;
import io.heaptap.wire.options.CaptureOptions;

import java.time.Duration;
import java.util.List;

/**
 * Starts a capture through the Attach API alone (the request rides on loading heaptap.jar), so
 * sampling begins without waiting for the target's JMX agent; later commands start that.
 */
final class StartCommand extends TargetCommand {
    static final Syntax SYNTAX = Syntax.of("start",
            "Start a capture in the target and return; it stops by itself when its time box ends.", TARGET,
            Syntax.join(CaptureFlags.FLAGS, List.of(Flag.toggle("--verbose", "Print where the time went: each phase of reaching"
                    + " the target, starting the capture, and the wait for its first sample (on stderr)."))));

    private final CaptureFlags capture;
    private final boolean verbose;

    /** How long --verbose waits for the first sample before it says none came. */
    static final Duration FIRST_SAMPLE_WAIT = Duration.ofSeconds(2);

    private CaptureOptions options;
    private AttachPhases phases;

    StartCommand(Arguments args) {
        super(args);
        capture = CaptureFlags.from(args);
        verbose = args.has("--verbose");
    }

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
    ExitCode run(Target t) {
        CaptureRequest request = new CaptureRequest(options, client("start"), replyId(), verbose);
        AttachRequests.startCapture(t, request, FIRST_SAMPLE_WAIT, phases());
        phases().print(System.err);
        Terminal.printf("started a capture in pid %d: %s at %s; 'heaptap dump %d' reads it%n",
                t.pid(), HumanUnits.formatDuration(options.duration()), options.describeSampling(), t.pid());
        return ExitCode.OK;
    }

    /** Names this request's answer in the target: this process and a clock, unique among concurrent CLIs. */
    static String replyId() {
        return ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
    }
}
