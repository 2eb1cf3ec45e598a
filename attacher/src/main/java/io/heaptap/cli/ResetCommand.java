package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;

import picocli.CommandLine.Command;

@Command(name = "reset", mixinStandardHelpOptions = true,
        description = "Stop sampling and forget everything recorded in the target. Harmless when idle.")
final class ResetCommand extends TargetCommand {
    @Override
    ExitCode run(AgentConnection connection) {
        connection.heaptap().reset();
        Terminal.printf("pid %d: %s%n", connection.target().pid(), connection.heaptap().getState());
        return ExitCode.OK;
    }
}
