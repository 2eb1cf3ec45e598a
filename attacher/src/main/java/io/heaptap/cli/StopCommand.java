package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;

import picocli.CommandLine.Command;

@Command(name = "stop", mixinStandardHelpOptions = true,
        description = "Stop the running capture; its profile stays available to 'dump'. Harmless when idle.")
final class StopCommand extends TargetCommand {
    @Override
    ExitCode run(AgentConnection connection) {
        connection.heaptap().stop();
        Terminal.printf("pid %d: %s%n", connection.target().pid(), connection.heaptap().getState());
        return ExitCode.OK;
    }
}
