package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.profile.census.CensusFormat;
import io.heaptap.session.Controller;

import java.util.List;

/** {@code heaptap census}: what holds the heap now, by class, exactly; no capture needed. */
final class CensusCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("census",
            List.of("What holds the heap now: live instances and bytes per class over the whole heap, exact (the JVM's own"
                            + " GC.class_histogram after a whole-heap collection heaptap forces, so it works with"
                            + " -XX:+DisableExplicitGC and on ZGC). Needs no capture.",
                    "WARNING: pauses the application twice: the collection, then the census; in all about as long as 'jcmd PID"
                            + " GC.class_histogram' (tenths of a second per GiB in use of large arrays, seconds per GiB of small objects)."),
            TARGET, List.of(
                    Flag.value("--top", "<n>", "Classes named, the most bytes first, 1-" + Controller.MAX_CENSUS_CLASSES
                            + "; the rest is one row. Default: " + CensusFormat.DEFAULT_CLASSES + "."),
                    Flag.value("--format", "<text|json>", "Output format. Default: text.")),
            false);

    private final int top;
    private final String format;

    CensusCommand(Arguments args) {
        super(args);
        top = args.intValue("--top", CensusFormat.DEFAULT_CLASSES);
        format = args.value("--format", "text");
    }

    @Override
    void validate() {
        if (top < 1 || top > Controller.MAX_CENSUS_CLASSES) {
            throw new IllegalArgumentException("--top must be 1 to " + Controller.MAX_CENSUS_CLASSES + ", not " + top);
        }
        CensusFormat.parse(format);
    }

    @Override
    ExitCode run(AgentConnection connection) {
        // Line by line: the text comes from the target, and each line is escaped for the terminal.
        for (String line : connection.heaptap().classCensus(top, format).split("\\R")) {
            Terminal.println(line);
        }
        return ExitCode.OK;
    }
}
