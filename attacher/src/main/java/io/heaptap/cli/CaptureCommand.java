package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.attach.AttachRequests;
import io.heaptap.attach.Target;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.wire.options.CaptureOptions;

import java.util.List;

final class CaptureCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("capture",
            List.of("Attach to a running JVM, sample its allocations for a time box, and print or write the profile.",
                    "Ctrl-C stops the capture in the target and still writes what was collected."),
            TARGET, Syntax.join(CaptureFlags.FLAGS, OutputFlags.FLAGS, LiveViewFlags.FLAGS), false);

    private final CaptureFlags capture;
    private final OutputFlags outputFlags;
    private final LiveViewFlags liveView;

    CaptureCommand(Arguments args) {
        super(args);
        capture = CaptureFlags.from(args);
        outputFlags = OutputFlags.from(args);
        liveView = LiveViewFlags.from(args);
    }

    private CaptureOptions options;
    private Output output;

    @Override
    void validate() {
        options = capture.options();
        output = outputFlags.resolve();
        liveView.validate();
    }

    private Interruption interruption;
    private AttachRequests.Started started;
    private boolean following;

    /**
     * Starts the capture through the Attach API, then follows it over JMX; a capture this command
     * cannot follow (its JMX connection failed) is stopped again, so none runs that nobody watches.
     * Ctrl-C from the start on stops the capture and still writes what it collected.
     */
    @Override
    ExitCode run(Target t) throws Exception {
        interruption = new Interruption().install();
        try {
            started = CaptureRun.start(t, options, client("capture"));
            try {
                return super.run(t);
            } catch (Exception e) {
                if (!following) {
                    AttachRequests.stopCapture(t, started, "heaptap capture could not follow it over JMX");
                }
                throw e;
            }
        } finally {
            interruption.finish();
        }
    }

    @Override
    ExitCode run(AgentConnection connection) throws Exception {
        following = true;
        return CaptureRun.follow(connection, started, options, output, liveView, interruption);
    }
}
