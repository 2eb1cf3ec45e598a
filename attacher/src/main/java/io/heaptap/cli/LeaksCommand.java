package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.profile.leak.LeakFormat;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.wire.options.LeakWatchKeys;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

final class LeaksCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("leaks",
            List.of("Watch a running JVM for leaks: sample its allocations for a while, take a live snapshot every step, and rank "
                            + "allocation sites by leak evidence (growth of live bytes, age against the time watched, survival across GCs).",
                    "Each site is a leak suspect, cache-like, stable, transient or undecided, with its evidence and a confidence."
                            + " Verdicts rest on proven live bytes: objects still referenced after a whole-heap marking; without enough"
                            + " markings in the watch a site is undecided (see --gc).",
                    "Only objects allocated after the watch starts are seen. Ctrl-C stops the watch in the target and still writes the report."),
            TARGET, List.of(
                    OptionFlags.value(LeakWatchKeys.DURATION),
                    OptionFlags.value(LeakWatchKeys.EVERY),
                    OptionFlags.value(LeakWatchKeys.INTERVAL),
                    Flag.value("--format", "<format>",
                            "text, json or html (a chart of live bytes over time). Default: from the --out extension, else text."),
                    Flag.value("--out", "<file>", "Write the report to this file (.txt, .json, .html) instead of stdout."),
                    OptionFlags.toggle(LeakWatchKeys.GC),
                    Flag.toggle("--paths", "At the end, for the top leak suspects, print the reference chain from a GC"
                            + " root (or a static field) to a few of their objects. WARNING: each walk pauses the application"
                            + " (at most 10 s).")),
            false);

    private final Map<String, String> given;
    private final String format;
    private final Path out;
    private final boolean paths;

    LeaksCommand(Arguments args) {
        super(args);
        given = OptionFlags.given(args, LeakWatchKeys.ALL, List.of(LeakWatchKeys.GC));
        format = args.value("--format");
        out = args.path("--out");
        paths = args.has("--paths");
    }

    private LeakWatchOptions options;
    private Output output;
    private LeakFormat leakFormat;

    @Override
    void validate() {
        options = watchOptions();
        if (format != null) {
            LeakFormat.parse(format);  // before Output's checks, so the message names the leak formats
        }
        output = Output.resolve(format, out);
        leakFormat = switch (output.format()) {
            case TEXT -> LeakFormat.TEXT;
            case JSON -> LeakFormat.JSON;
            case HTML -> LeakFormat.HTML;
            default -> throw new IllegalArgumentException("a leak report is text, json or html, not " + output.format().id());
        };
    }

    /** The watch's options as the vocabulary reads the flags, as it reads every door's. */
    LeakWatchOptions watchOptions() {
        return LeakWatchKeys.parse(given);
    }

    @Override
    ExitCode run(AgentConnection connection) throws Exception {
        return LeaksRun.run(connection, options, leakFormat, output, client("leaks"), paths);
    }
}
