package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;
import io.heaptap.session.CaptureOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "capture", mixinStandardHelpOptions = true,
        description = {"Attach to a running JVM, sample its allocations for a time box, and print or write the profile.",
                "Ctrl-C stops the capture in the target and still writes what was collected."})
final class CaptureCommand extends TargetCommand {
    @Mixin
    CaptureFlags capture;
    @Mixin
    OutputFlags outputFlags;
    @Mixin
    LiveViewFlags liveView;

    private CaptureOptions options;
    private Output output;

    @Override
    void validate() {
        options = capture.options();
        output = outputFlags.resolve();
        liveView.validate();
    }

    @Override
    ExitCode run(AgentConnection connection) throws Exception {
        return CaptureRun.run(connection, options, output, liveView, client("capture"));
    }
}
