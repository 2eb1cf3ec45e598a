package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;
import io.heaptap.profile.HumanUnits;
import io.heaptap.session.CaptureOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Start a capture in the target and return; it stops by itself when its time box ends.")
final class StartCommand extends TargetCommand {
    @Mixin
    CaptureFlags capture;

    private CaptureOptions options;

    @Override
    void validate() {
        options = capture.options();
    }

    @Override
    ExitCode run(AgentConnection connection) {
        CaptureRun.start(connection.heaptap(), options, client("start"));
        Terminal.printf("started a capture in pid %d: %s at interval %s; 'heaptap dump %d' reads it%n",
                connection.target().pid(), HumanUnits.formatDuration(options.duration()),
                HumanUnits.formatBytes(options.intervalBytes()), connection.target().pid());
        return ExitCode.OK;
    }
}
