package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.profile.leak.LeakFormat;
import io.heaptap.session.LeakWatchOptions;

import java.nio.file.Path;
import java.util.List;

final class LeaksCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("leaks",
            List.of("Watch a running JVM for leaks: sample its allocations for a while, take a live snapshot every step, and rank "
                            + "allocation sites by leak evidence (growth of live bytes, age against the time watched, survival across GCs).",
                    "Each site is a leak suspect, cache-like, stable, transient or undecided, with its evidence and a confidence."
                            + " Verdicts rest on proven live bytes: objects still referenced after a whole-heap marking; without enough"
                            + " markings in the watch a site is undecided (see --gc).",
                    "Only objects allocated after the watch starts are seen. Ctrl-C stops the watch in the target and still writes the report."),
            TARGET, List.of(
                    Flag.value("--duration", "<duration>",
                            "How long to watch, e.g. 5m, 1h (max 7 days). Sampling stops in the target when it ends. Default: 5m."),
                    Flag.value("--every", "<duration>", "Time between live snapshots, 1s up to the duration. Default: 15s."),
                    Flag.value("--interval", "<size>", "Mean bytes allocated between samples, per thread. Default: 512k."),
                    Flag.value("--format", "<format>",
                            "text, json or html (a chart of live bytes over time). Default: from the --out extension, else text."),
                    Flag.value("--out", "<file>", "Write the report to this file (.txt, .json, .html) instead of stdout."),
                    Flag.toggle("--gc", "Force a full collection in the target before each snapshot. Only a whole-heap"
                            + " collection proves which objects are live: without one (a large G1 heap can run young collections only for"
                            + " minutes), sites stay undecided. WARNING: each forced collection pauses the application (the report states"
                            + " every pause; on a multi-GiB heap it can take a second or more)."),
                    Flag.toggle("--paths", "At the end, for the top leak suspects, print the reference chain from a GC"
                            + " root (or a static field) to a few of their objects. WARNING: each walk pauses the application"
                            + " (at most 10 s).")),
            false);

    private final String duration;
    private final String every;
    private final String interval;
    private final String format;
    private final Path out;
    private final boolean gc;
    private final boolean paths;

    LeaksCommand(Arguments args) {
        super(args);
        duration = args.value("--duration", "5m");
        every = args.value("--every", "15s");
        interval = args.value("--interval", "512k");
        format = args.value("--format");
        out = args.path("--out");
        gc = args.has("--gc");
        paths = args.has("--paths");
    }

    private LeakWatchOptions options;
    private Output output;
    private LeakFormat leakFormat;

    @Override
    void validate() {
        options = LeakWatchOptions.parse(duration, every, interval, gc);
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

    @Override
    ExitCode run(AgentConnection connection) throws Exception {
        return LeaksRun.run(connection, options, leakFormat, output, client("leaks"), paths);
    }
}
