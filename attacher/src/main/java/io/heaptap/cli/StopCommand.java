package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "stop", mixinStandardHelpOptions = true,
        description = "Stop the running capture; its profile stays available to 'dump'. Harmless when idle.")
final class StopCommand extends TargetCommand {
    @Option(names = "--continuous", description = "Also stop continuous sampling (started by 'serve --continuous');"
            + " scrapes of /debug/pprof then fail until it is started again")
    boolean continuous;

    @Override
    ExitCode run(AgentConnection connection) {
        if (continuous) {
            connection.heaptap().stopContinuous();
            Terminal.printf("pid %d: continuous sampling stopped; %s%n", connection.target().pid(), connection.heaptap().getState());
            return ExitCode.OK;
        }
        connection.heaptap().stop();
        Terminal.printf("pid %d: %s%n", connection.target().pid(), connection.heaptap().getState());
        return ExitCode.OK;
    }
}
