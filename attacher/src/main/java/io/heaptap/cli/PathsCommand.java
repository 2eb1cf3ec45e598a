package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.cli.args.Syntax;
import io.heaptap.exit.ExitCode;
import io.heaptap.session.PathOptions;

import java.util.List;

final class PathsCommand extends TargetCommand {
    static final Syntax SYNTAX = new Syntax("paths",
            List.of("How is it held? Print the reference chain from a GC root (or a static field) to a few tracked"
                            + " objects of an allocation site, found with a JVMTI heap walk.",
                    "WARNING: the walk pauses the application while it runs (at most --time-limit).",
                    "Needs objects tracked by a capture with live tracking (the default)."),
            TARGET, List.of(
                    Flag.value("--site", "<type|method>", "Required. The allocated type (byte[], com.example.Order) or the"
                            + " allocating method (OrderCache.put); a substring."),
                    Flag.value("--max-paths", "<n>", "Objects to find chains for, the oldest first, 1-"
                            + PathOptions.MAX_MAX_PATHS + ". Default: " + PathOptions.DEFAULT_MAX_PATHS + "."),
                    Flag.value("--max-depth", "<n>", "References followed from a root or a static field, 1-"
                            + PathOptions.MAX_MAX_DEPTH + ". Default: " + PathOptions.DEFAULT_MAX_DEPTH + "."),
                    Flag.value("--max-objects", "<n>", "Objects the walk may record, 1-" + PathOptions.MAX_MAX_OBJECTS
                            + ": about 60 bytes of native memory each while it runs. Default: " + PathOptions.DEFAULT_MAX_OBJECTS + "."),
                    Flag.value("--time-limit", "<duration>", "Longest walk, and so pause: 2s, 500ms (max 10s). Default: 2s.")),
            false);

    private final String site;
    private final int maxPaths;
    private final int maxDepth;
    private final int maxObjects;
    private final String timeLimit;

    PathsCommand(Arguments args) {
        super(args);
        site = args.required("--site");
        maxPaths = args.intValue("--max-paths", PathOptions.DEFAULT_MAX_PATHS);
        maxDepth = args.intValue("--max-depth", PathOptions.DEFAULT_MAX_DEPTH);
        maxObjects = args.intValue("--max-objects", PathOptions.DEFAULT_MAX_OBJECTS);
        timeLimit = args.value("--time-limit", "2s");
    }

    @Override
    void validate() {
        PathOptions.parse(maxPaths, maxDepth, maxObjects, timeLimit);  // refuse bad bounds before attaching
        if (site.isBlank()) {
            throw new IllegalArgumentException("--site must name a type or a method");
        }
    }

    @Override
    ExitCode run(AgentConnection connection) {
        for (String line : connection.heaptap().referencePaths(site, maxPaths, maxDepth, maxObjects, timeLimit)) {
            Terminal.println(line);
        }
        return ExitCode.OK;
    }
}
