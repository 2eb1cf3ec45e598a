package io.heaptap.cli;

import io.heaptap.attach.AttachPhases;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.profile.format.TerminalText;
import io.heaptap.session.Version;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The heaptap command line. Errors are one line on stderr and a documented exit code. */
@Command(name = "heaptap", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = "On-demand allocation profiling of running JVMs.",
        subcommands = {ListCommand.class, CaptureCommand.class, LeaksCommand.class, PathsCommand.class, StartCommand.class,
                StopCommand.class, StatusCommand.class, DumpCommand.class, ResetCommand.class, ServeCommand.class,
                DemoCommand.class, DemoTarget.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error (a bug: please report it)",
                "2:bad arguments or unwritable --out", "3:no such process, or no single JVM matches",
                "4:cannot attach (not a JVM, attach disabled, other user, Java < 17)",
                "5:the target refused (another profiler holds the capability, capture already running)",
                "6:the target JVM exited", "130:interrupted (Ctrl-C); what was collected is still written"})
public final class Main implements Runnable {

    public static void main(String[] args) {
        AttachPhases.touch();
        int code = run(args);
        // During Ctrl-C the JVM is already shutting down: exiting again would block forever.
        if (!Interruption.shuttingDown()) {
            System.exit(code);
        }
    }

    public static int run(String[] args) {
        CommandLine cli = new CommandLine(new Main());
        // Numbers in ASCII digits only: Java's parsers also take other scripts' digits ("\u0663" as 3).
        cli.registerConverter(Integer.class, Main::asciiInt).registerConverter(Integer.TYPE, Main::asciiInt)
                .registerConverter(Long.class, Main::asciiLong).registerConverter(Long.TYPE, Main::asciiLong);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof HeaptapException h) {
                cmd.getErr().println("heaptap: " + TerminalText.escape(h.getMessage()));
                return h.exitCode().code();
            }
            if (e instanceof IllegalArgumentException) {
                cmd.getErr().println("heaptap: " + TerminalText.escape(e.getMessage()));
                return ExitCode.USAGE.code();
            }
            cmd.getErr().println("heaptap: internal error: " + TerminalText.escape(String.valueOf(e))
                    + " (please report this with the command you ran)");
            return ExitCode.INTERNAL.code();
        });
        cli.setParameterExceptionHandler((e, arguments) -> {
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println("heaptap: " + TerminalText.escape(e.getMessage()));
            cmd.getErr().println("usage: " + cmd.getCommandSpec().qualifiedName() + " --help");
            return ExitCode.USAGE.code();
        });
        return cli.execute(args);
    }

    static int asciiInt(String value) {
        return Math.toIntExact(asciiLong(value));
    }

    static long asciiLong(String value) {
        if (!value.matches("[+-]?[0-9]{1,18}")) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number (ASCII digits)");
        }
        return Long.parseLong(value);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"heaptap " + Version.current()};
        }
    }
}
