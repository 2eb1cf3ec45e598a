package io.heaptap.cli;

import io.heaptap.attach.AgentConnection;
import io.heaptap.exit.ExitCode;
import io.heaptap.session.PathOptions;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "paths", mixinStandardHelpOptions = true,
        description = {"How is it held? Print the reference chain from a GC root (or a static field) to a few tracked"
                + " objects of an allocation site, found with a JVMTI heap walk.",
                "WARNING: the walk pauses the application while it runs (at most --time-limit).",
                "Needs objects tracked by a capture with live tracking (the default)."})
final class PathsCommand extends TargetCommand {
    @Option(names = "--site", required = true, paramLabel = "<type|method>",
            description = "The allocated type (byte[], com.example.Order) or the allocating method (OrderCache.put); a substring.")
    String site;

    @Option(names = "--max-paths", paramLabel = "<n>", description = "Objects to find chains for, the oldest first, 1-"
            + PathOptions.MAX_MAX_PATHS + ". Default: " + PathOptions.DEFAULT_MAX_PATHS + ".")
    int maxPaths = PathOptions.DEFAULT_MAX_PATHS;

    @Option(names = "--max-depth", paramLabel = "<n>",
            description = "References followed from a root or a static field, 1-" + PathOptions.MAX_MAX_DEPTH + ". Default: "
                    + PathOptions.DEFAULT_MAX_DEPTH + ".")
    int maxDepth = PathOptions.DEFAULT_MAX_DEPTH;

    @Option(names = "--max-objects", paramLabel = "<n>",
            description = "Objects the walk may record, 1-" + PathOptions.MAX_MAX_OBJECTS + ": about 60 bytes of native memory each"
                    + " while it runs. Default: " + PathOptions.DEFAULT_MAX_OBJECTS + ".")
    int maxObjects = PathOptions.DEFAULT_MAX_OBJECTS;

    @Option(names = "--time-limit", paramLabel = "<duration>", description = "Longest walk, and so pause: 2s, 500ms (max 10s). Default: 2s.")
    String timeLimit = "2s";

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
