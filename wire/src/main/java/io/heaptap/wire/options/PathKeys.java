package io.heaptap.wire.options;

import io.heaptap.wire.options.PathOptions;

import java.util.List;
import java.util.Map;

/**
 * The bounds of a reference-path search, each declared once ({@link OptionKey}), and the one parser the
 * CLI's {@code paths} flags and the MBean's {@code referencePaths} use. A missing, blank or {@code default}
 * value is the default (the MBean's 0 in a number field too).
 */
public final class PathKeys {
    public static final OptionKey MAX_PATHS = new OptionKey("max-paths", "<n>", Integer.toString(PathOptions.DEFAULT_MAX_PATHS),
            "Objects to find chains for, the oldest first, 1-" + PathOptions.MAX_MAX_PATHS + ".", List.of());
    public static final OptionKey MAX_DEPTH = new OptionKey("max-depth", "<n>", Integer.toString(PathOptions.DEFAULT_MAX_DEPTH),
            "References followed from a root or a static field, 1-" + PathOptions.MAX_MAX_DEPTH + ".", List.of());
    public static final OptionKey MAX_OBJECTS = new OptionKey("max-objects", "<n>", Integer.toString(PathOptions.DEFAULT_MAX_OBJECTS),
            "Objects the walk may record, 1-" + PathOptions.MAX_MAX_OBJECTS + ": about 60 bytes of native memory each while it runs.",
            List.of());
    public static final OptionKey TIME_LIMIT = new OptionKey("time-limit", "<duration>", OptionKey.words(PathOptions.DEFAULT_TIME_LIMIT),
            "Longest walk, and so pause: 2s, 500ms (max " + OptionKey.words(PathOptions.MAX_TIME_LIMIT) + ").", List.of());
    public static final List<OptionKey> ALL = List.of(MAX_PATHS, MAX_DEPTH, MAX_OBJECTS, TIME_LIMIT);

    private PathKeys() {
    }

    /** The bounds from text by name; absent, blank or {@code default}: the default. A refusal names its key. */
    public static PathOptions parse(Map<String, String> given) {
        GivenOptions text = GivenOptions.resolve("reference-path option", ALL, given);
        int maxPaths = text.count(MAX_PATHS, "max paths", PathOptions.DEFAULT_MAX_PATHS, PathOptions.MAX_MAX_PATHS);
        int maxDepth = text.count(MAX_DEPTH, "max depth", PathOptions.DEFAULT_MAX_DEPTH, PathOptions.MAX_MAX_DEPTH);
        int maxObjects = text.count(MAX_OBJECTS, "max objects", PathOptions.DEFAULT_MAX_OBJECTS, PathOptions.MAX_MAX_OBJECTS);
        var timeLimit = text.read(TIME_LIMIT, PathOptions.DEFAULT_TIME_LIMIT, PathOptions::parseTimeLimit);
        return new PathOptions(maxPaths, maxDepth, maxObjects, timeLimit);
    }
}
