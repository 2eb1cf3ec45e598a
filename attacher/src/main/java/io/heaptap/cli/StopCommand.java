package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;

import java.util.List;

final class StopCommand extends TargetCommand {
    static final Syntax SYNTAX = Syntax.of("stop",
            "Stop the running capture; its profile stays available to 'dump'. Harmless when idle.", TARGET,
            List.of(Flag.toggle("--continuous", "Also stop continuous sampling (started by 'serve --continuous');"
                    + " scrapes of /debug/pprof then fail until it is started again.")));

    private final boolean continuous;

    StopCommand(Arguments args) {
        super(args);
        continuous = args.has("--continuous");
    }

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
