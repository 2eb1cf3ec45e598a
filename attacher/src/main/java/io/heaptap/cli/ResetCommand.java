package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;

import java.util.List;

final class ResetCommand extends TargetCommand {
    static final Syntax SYNTAX = Syntax.of("reset",
            "Stop sampling and forget everything recorded in the target. Harmless when idle.", TARGET, List.of());

    ResetCommand(Arguments args) {
        super(args);
    }

    @Override
    ExitCode run(AgentConnection connection) {
        connection.heaptap().reset();
        Terminal.printf("pid %d: %s%n", connection.target().pid(), connection.heaptap().getState());
        return ExitCode.OK;
    }
}
