package io.heaptap.wire.options;

import io.heaptap.wire.NativeLimits;
import io.heaptap.profile.HumanUnits;

import io.heaptap.wire.options.PathKeys;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How far a reference-path search may go. The walk pauses the application, so every bound is
 * checked here, whoever asks (CLI, MBean, the leaks command); every door reads one from text through {@link PathKeys}.
 *
 * @param maxPaths   tracked objects to find chains for (the oldest of the site)
 * @param maxDepth   references followed from a GC root or a static field
 * @param maxObjects objects the walk may record: about 60 bytes of native memory each while it runs (12 in heaptap's
 *                   table, the rest in the JVM's JVMTI tag map), all freed when it ends
 * @param timeLimit  the longest the walk (and so the pause) may last
 */
public record PathOptions(int maxPaths, int maxDepth, int maxObjects, Duration timeLimit) {
    public static final int DEFAULT_MAX_PATHS = 3;
    public static final int MAX_MAX_PATHS = 64;
    public static final int DEFAULT_MAX_DEPTH = 32;
    public static final int MAX_MAX_DEPTH = NativeLimits.MAX_PATH_DEPTH;
    public static final int DEFAULT_MAX_OBJECTS = 1 << 20;
    public static final int MAX_MAX_OBJECTS = 1 << 24;
    /**
     * The walk stops every application thread, so its limit is a pause budget: a whole walk of a
     * 4-million-object heap took 2.0-3.6 s (ReferencePathsIT), small heaps 20-310 ms. Longer than
     * 10 s is an outage for most services (health checks fail), not a diagnostic.
     */
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(2);
    public static final Duration MAX_TIME_LIMIT = Duration.ofSeconds(10);
    public static final PathOptions DEFAULT = new PathOptions(DEFAULT_MAX_PATHS, DEFAULT_MAX_DEPTH, DEFAULT_MAX_OBJECTS,
            DEFAULT_TIME_LIMIT);

    public PathOptions {
        if (maxPaths < 1 || maxPaths > MAX_MAX_PATHS) {
            throw new IllegalArgumentException("max paths must be between 1 and " + MAX_MAX_PATHS + ", not " + maxPaths);
        }
        if (maxDepth < 1 || maxDepth > MAX_MAX_DEPTH) {
            throw new IllegalArgumentException("max depth must be between 1 and " + MAX_MAX_DEPTH + ", not " + maxDepth);
        }
        if (maxObjects < 1 || maxObjects > MAX_MAX_OBJECTS) {
            throw new IllegalArgumentException("max objects must be between 1 and " + MAX_MAX_OBJECTS + ", not " + maxObjects);
        }
        if (timeLimit == null || timeLimit.isZero() || timeLimit.isNegative()) {
            throw new IllegalArgumentException("time limit must be positive (for example 10s)");
        }
        if (timeLimit.compareTo(MAX_TIME_LIMIT) > 0) {
            throw new IllegalArgumentException("time limit " + HumanUnits.formatDuration(timeLimit)
                    + " is above the maximum of 10s (the walk pauses the application)");
        }
    }

    /** From human text for the time limit ({@code 10s}, {@code 500ms}); blank or {@code default} means the default. */
    public static PathOptions parse(int maxPaths, int maxDepth, int maxObjects, String timeLimit) {
        Map<String, String> given = new HashMap<>();
        given.put(PathKeys.MAX_PATHS.name(), Integer.toString(maxPaths));
        given.put(PathKeys.MAX_DEPTH.name(), Integer.toString(maxDepth));
        given.put(PathKeys.MAX_OBJECTS.name(), Integer.toString(maxObjects));
        given.put(PathKeys.TIME_LIMIT.name(), timeLimit);
        return PathKeys.parse(given);
    }

    /** A time limit from text ({@code 2s}), checked against the limits. */
    public static Duration parseTimeLimit(String text) {
        if (text.trim().startsWith("-")) {
            throw new IllegalArgumentException("time limit must be positive, not " + text.trim());
        }
        return new PathOptions(DEFAULT_MAX_PATHS, DEFAULT_MAX_DEPTH, DEFAULT_MAX_OBJECTS, HumanUnits.parseDuration(text)).timeLimit();
    }
}
