package io.heaptap.cli;

import io.heaptap.attach.AttachPhases;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.profile.format.TerminalText;
import io.heaptap.session.Version;

import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The heaptap command line. Errors are one line on stderr and a documented exit code. */
@Command(name = "heaptap", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = "On-demand allocation profiling of running JVMs.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error (a bug: please report it)",
                "2:bad arguments or unwritable --out", "3:no such process, or no single JVM matches",
                "4:cannot attach (not a JVM, attach disabled, other user, Java < 17)",
                "5:the target refused (another profiler holds the capability, capture already running)",
                "6:the target JVM exited", "130:interrupted (Ctrl-C); what was collected is still written"})
public final class Main implements Runnable {
    /**
     * The subcommands' names (each class's {@code @Command} name; MainTest checks they agree), in
     * help order. picocli builds a command's model by reflection over its options and mixins when it
     * is added; building all twelve took 0.25-0.6 s of every run, so a run that names its
     * subcommand builds that one alone.
     */
    static final List<String> SUBCOMMANDS = List.of("list", "capture", "leaks", "paths", "start", "stop", "status",
            "dump", "reset", "serve", "demo", "__demo-target");

    @Spec
    CommandSpec spec;

    /**
     * A new subcommand object by name, or null. A switch, not a map of constructor references: each
     * reference is a class the JVM spins at first use, and twelve of them cost every run ~30 ms of CPU.
     */
    static Object subcommand(String name) {
        return switch (name) {
            case "list" -> new ListCommand();
            case "capture" -> new CaptureCommand();
            case "leaks" -> new LeaksCommand();
            case "paths" -> new PathsCommand();
            case "start" -> new StartCommand();
            case "stop" -> new StopCommand();
            case "status" -> new StatusCommand();
            case "dump" -> new DumpCommand();
            case "reset" -> new ResetCommand();
            case "serve" -> new ServeCommand();
            case "demo" -> new DemoCommand();
            case "__demo-target" -> new DemoTarget();
            default -> null;
        };
    }

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
        // Subcommands first: the converters and handlers below reach the subcommands added before them.
        Object named = args.length == 0 ? null : subcommand(args[0]);
        if (named != null) {
            cli.addSubcommand(named);
        } else if (!(args.length == 1 && (args[0].equals("--version") || args[0].equals("-V")))) {
            // help, a typo or an option first: every subcommand, so usage and suggestions are complete
            for (String name : SUBCOMMANDS) {
                cli.addSubcommand(subcommand(name));
            }
        }
        // Numbers in ASCII digits only: Java's parsers also take other scripts' digits ("\u0663" as 3).
        CommandLine.ITypeConverter<Integer> ints = Main::asciiInt;
        CommandLine.ITypeConverter<Long> longs = Main::asciiLong;
        cli.registerConverter(Integer.class, ints).registerConverter(Integer.TYPE, ints)
                .registerConverter(Long.class, longs).registerConverter(Long.TYPE, longs);
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
        spec.commandLine().usage(System.out);
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"heaptap " + Version.current()};
        }
    }
}
