package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;

final class DumpCommand extends TargetCommand {
    static final Syntax SYNTAX = Syntax.of("dump",
            "Read the profile of the current or last capture: fetched from the target undecoded, in chunks, and encoded here.",
            TARGET, Syntax.join(OutputFlags.FLAGS, LiveViewFlags.FLAGS));

    private final OutputFlags outputFlags;
    private final LiveViewFlags liveView;

    DumpCommand(Arguments args) {
        super(args);
        outputFlags = OutputFlags.from(args);
        liveView = LiveViewFlags.from(args);
    }

    private Output output;

    @Override
    void validate() {
        output = outputFlags.resolve();
        liveView.validate();
    }

    @Override
    ExitCode run(AgentConnection connection) throws Exception {
        CaptureRun.write(connection, liveView.dump(connection.heaptap(), output.format()), output);
        return ExitCode.OK;
    }
}
