package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.wire.options.PathOptions;
import io.heaptap.wire.options.PathKeys;

import java.util.List;
import java.util.Map;

final class PathsCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("paths",
            List.of("How is it held? Print the reference chain from a GC root (or a static field) to a few tracked"
                            + " objects of an allocation site, found with a JVMTI heap walk.",
                    "WARNING: the walk pauses the application while it runs (at most --time-limit).",
                    "Needs objects tracked by a capture with live tracking (the default)."),
            TARGET, List.of(
                    Flag.value("--site", "<type|method>", "Required. The allocated type (byte[], com.example.Order) or the"
                            + " allocating method (OrderCache.put); a substring."),
                    OptionFlags.value(PathKeys.MAX_PATHS),
                    OptionFlags.value(PathKeys.MAX_DEPTH),
                    OptionFlags.value(PathKeys.MAX_OBJECTS),
                    OptionFlags.value(PathKeys.TIME_LIMIT)),
            false);

    private final String site;
    private final Map<String, String> given;
    private PathOptions options;

    PathsCommand(Arguments args) {
        super(args);
        site = args.required("--site");
        given = OptionFlags.given(args, PathKeys.ALL, List.of());
    }

    @Override
    void validate() {
        options = pathOptions();  // refuse bad bounds before attaching
        if (site.isBlank()) {
            throw new IllegalArgumentException("--site must name a type or a method");
        }
    }

    /** The walk's bounds as the vocabulary reads the flags, as it reads every door's. */
    PathOptions pathOptions() {
        return PathKeys.parse(given);
    }

    @Override
    ExitCode run(AgentConnection connection) {
        for (String line : connection.heaptap().referencePaths(site, options.maxPaths(), options.maxDepth(),
                options.maxObjects(), options.timeLimit().toMillis() + "ms")) {
            Terminal.println(line);
        }
        return ExitCode.OK;
    }
}
