package io.heaptap.cli;

import io.heaptap.attach.AttachException;
import io.heaptap.attach.AttachPhases;
import io.heaptap.cli.args.ArgumentParser;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.HelpText;
import io.heaptap.cli.args.Suggestions;
import io.heaptap.cli.args.Syntax;
import io.heaptap.cli.args.UsageException;
import io.heaptap.exit.ExitCode;
import io.heaptap.exit.HeaptapException;
import io.heaptap.profile.format.TerminalText;
import io.heaptap.session.Version;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/** The heaptap command line. Errors are one line on stderr and a documented exit code. */
public final class Main {
    static final String DESCRIPTION = "On-demand allocation profiling of running JVMs.";

    static final List<String> EXIT_CODES = List.of("0:success", "1:internal error (a bug: please report it)",
            "2:bad arguments or unwritable --out", "3:no such process, or no single JVM matches",
            "4:cannot attach (not a JVM, attach disabled, other user, Java < 17)",
            "5:the target refused (another profiler holds the capability, capture already running)",
            "6:the target JVM exited", "130:interrupted (Ctrl-C); what was collected is still written");

    /** The subcommands' names, in help order. */
    static final List<String> SUBCOMMANDS = List.of("list", "capture", "leaks", "paths", "census", "start", "stop",
            "status", "dump", "reset", "serve", "demo", "__demo-target");

    private Main() {
    }

    /** A subcommand's syntax by name, or null. A switch, so a run loads the one command class it names. */
    static Syntax syntax(String name) {
        return switch (name) {
            case "list" -> ListCommand.SYNTAX;
            case "capture" -> CaptureCommand.SYNTAX;
            case "leaks" -> LeaksCommand.SYNTAX;
            case "paths" -> PathsCommand.SYNTAX;
            case "census" -> CensusCommand.SYNTAX;
            case "start" -> StartCommand.SYNTAX;
            case "stop" -> StopCommand.SYNTAX;
            case "status" -> StatusCommand.SYNTAX;
            case "dump" -> DumpCommand.SYNTAX;
            case "reset" -> ResetCommand.SYNTAX;
            case "serve" -> ServeCommand.SYNTAX;
            case "demo" -> DemoCommand.SYNTAX;
            case "__demo-target" -> DemoTarget.SYNTAX;
            default -> null;
        };
    }

    /** The command for arguments parsed against {@link #syntax}. */
    static Callable<Integer> command(Arguments args) {
        return switch (args.syntax().name()) {
            case "list" -> new ListCommand();
            case "capture" -> new CaptureCommand(args);
            case "leaks" -> new LeaksCommand(args);
            case "paths" -> new PathsCommand(args);
            case "census" -> new CensusCommand(args);
            case "start" -> new StartCommand(args);
            case "stop" -> new StopCommand(args);
            case "status" -> new StatusCommand(args);
            case "dump" -> new DumpCommand(args);
            case "reset" -> new ResetCommand(args);
            case "serve" -> new ServeCommand(args);
            case "demo" -> new DemoCommand(args);
            case "__demo-target" -> new DemoTarget();
            default -> throw new IllegalStateException("no command " + args.syntax().name());
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
        String name = args.length == 0 ? "--help" : args[0];
        try {
            if (ArgumentParser.isHelp(name)) {
                System.out.print(overview());
                return ExitCode.OK.code();
            }
            if (ArgumentParser.isVersion(name)) {
                System.out.println(version());
                return ExitCode.OK.code();
            }
            Syntax syntax = syntax(name);
            if (syntax == null) {
                String nearest = Suggestions.nearest(name, SUBCOMMANDS);
                throw new UsageException(null, (name.startsWith("-") ? "unknown option '" : "unknown command '") + name + "'"
                        + (nearest == null || name.startsWith("-") ? "" : "; did you mean " + nearest + "?"));
            }
            Arguments parsed = ArgumentParser.parse(syntax, Arrays.asList(args).subList(1, args.length));
            switch (parsed.request()) {
                case HELP -> {
                    System.out.print(HelpText.of("heaptap", syntax));
                    return ExitCode.OK.code();
                }
                case VERSION -> {
                    System.out.println(version());
                    return ExitCode.OK.code();
                }
                default -> {
                    return command(parsed).call();
                }
            }
        } catch (UsageException e) {
            System.err.println("heaptap: " + TerminalText.escape(e.getMessage()));
            System.err.println("usage: heaptap" + (e.command() == null ? "" : " " + e.command()) + " --help");
            return ExitCode.USAGE.code();
        } catch (HeaptapException e) {
            System.err.println("heaptap: " + TerminalText.escape(e.getMessage()));
            return e.exitCode().code();
        } catch (AttachException e) {
            System.err.println("heaptap: " + TerminalText.escape(e.getMessage()));
            return AttachExitCodes.of(e).code();
        } catch (IllegalArgumentException e) {
            System.err.println("heaptap: " + TerminalText.escape(e.getMessage()));
            return ExitCode.USAGE.code();
        } catch (Exception e) {
            System.err.println("heaptap: internal error: " + TerminalText.escape(String.valueOf(e))
                    + " (please report this with the command you ran)");
            return ExitCode.INTERNAL.code();
        }
    }

    static String overview() {
        List<Syntax> all = new ArrayList<>();
        for (String n : SUBCOMMANDS) {
            all.add(syntax(n));
        }
        return HelpText.overview("heaptap", DESCRIPTION, all, EXIT_CODES);
    }

    static String version() {
        return "heaptap " + Version.current();
    }
}
