package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Read the profile of the current or last capture: fetched from the target undecoded, in chunks, and encoded here.")
final class DumpCommand extends TargetCommand {
    @Mixin
    OutputFlags outputFlags;
    @Mixin
    LiveViewFlags liveView;

    private Output output;

    @Override
    void validate() {
        output = outputFlags.resolve();
        liveView.validate();
    }

    @Override
    ExitCode run(AgentConnection connection) throws Exception {
        CaptureRun.write(connection, liveView.dump(connection.heaptap()), output);
        return ExitCode.OK;
    }
}
