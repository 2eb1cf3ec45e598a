package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.heaptap.cli.args.ArgumentParser;
import io.heaptap.http.api.ApiRoutes;
import io.heaptap.http.route.HttpError;
import io.heaptap.http.route.QueryParams;
import io.heaptap.jmx.StartArguments;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.wire.options.PathOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A leak watch's options and a reference-path search's bounds through every door that takes them (CLI flags,
 * HTTP parameters, MBean arguments) are equal, blank and {@code default} are the default everywhere, and a bad
 * value is refused with one message: the doors share the vocabulary ({@code LeakWatchKeys}, {@code PathKeys}).
 */
class WatchAndPathDoorsTest {
    private static List<String> args(String... flags) {
        List<String> args = new ArrayList<>(List.of("42"));
        args.addAll(List.of(flags));
        return args;
    }

    private static LeakWatchOptions cliWatch(String... flags) {
        return new LeaksCommand(ArgumentParser.parse(LeaksCommand.SYNTAX, args(flags))).watchOptions();
    }

    private static PathOptions cliPaths(String... flags) {
        return new PathsCommand(ArgumentParser.parse(PathsCommand.SYNTAX, args(flags))).pathOptions();
    }

    private static LeakWatchOptions httpWatch(String... nameValues) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            query.put(nameValues[i], List.of(nameValues[i + 1]));
        }
        return ApiRoutes.leakWatchOptions(QueryParams.of(query));
    }

    @Test
    void theDefaultLeakWatchIsTheSameThroughEveryDoor() {
        LeakWatchOptions expected = new LeakWatchOptions(Duration.ofMinutes(5), Duration.ofSeconds(15), CaptureOptions.DEFAULT_INTERVAL,
                false);
        assertEquals(expected, cliWatch());
        assertEquals(expected, cliWatch("--duration", "default", "--every", "default", "--interval", "default"));
        assertEquals(expected, httpWatch());
        assertEquals(expected, httpWatch("duration", "", "every", "default", "interval", "", "gc", ""));
        // JConsole's untouched fields: blank or the type's name.
        assertEquals(expected, StartArguments.leakWatch("", "", "", false));
        assertEquals(expected, StartArguments.leakWatch("String", "String", "String", false));
        assertEquals(expected, StartArguments.leakWatch(null, null, null, false));
    }

    @Test
    void aLeakWatchWithEveryOptionIsTheSameThroughEveryDoor() {
        LeakWatchOptions expected = new LeakWatchOptions(Duration.ofHours(2), Duration.ofMinutes(1), 64 * 1024, true);
        assertEquals(expected, cliWatch("--duration", "2h", "--every", "1m", "--interval", "64k", "--gc"));
        assertEquals(expected, httpWatch("duration", "2h", "every", "1m", "interval", "64k", "gc", "true"));
        assertEquals(expected, StartArguments.leakWatch("2h", "1m", "64k", true));
    }

    @Test
    void aBadLeakWatchIsRefusedWithTheSameMessageThroughEveryDoor() {
        String cli = assertThrows(IllegalArgumentException.class, () -> cliWatch("--duration", "10s", "--every", "30s")).getMessage();
        HttpError http = assertThrows(HttpError.class, () -> httpWatch("duration", "10s", "every", "30s"));
        assertEquals(cli, http.getMessage());
        assertEquals("every", http.parameter(), "HTTP's error names the parameter at fault");
        assertEquals(cli, assertThrows(IllegalArgumentException.class, () -> StartArguments.leakWatch("10s", "30s", "", false)).getMessage());

        String interval = assertThrows(IllegalArgumentException.class, () -> cliWatch("--interval", "1k")).getMessage();
        assertEquals("interval", assertThrows(HttpError.class, () -> httpWatch("interval", "1k")).parameter());
        assertEquals(interval, assertThrows(HttpError.class, () -> httpWatch("interval", "1k")).getMessage());
        assertEquals(interval, assertThrows(IllegalArgumentException.class, () -> StartArguments.leakWatch("", "", "1k", false)).getMessage());
    }

    @Test
    void theDefaultPathBoundsAreTheSameThroughEveryDoor() {
        assertEquals(PathOptions.DEFAULT, cliPaths("--site", "byte[]"));
        assertEquals(PathOptions.DEFAULT, cliPaths("--site", "byte[]", "--max-paths", "default", "--time-limit", "default"));
        // JConsole's 0 in a number field and blank or "String" in a text field.
        assertEquals(PathOptions.DEFAULT, StartArguments.paths(0, 0, 0, ""));
        assertEquals(PathOptions.DEFAULT, StartArguments.paths(0, 0, 0, "String"));
        assertEquals(PathOptions.DEFAULT, StartArguments.paths(0, 0, 0, "default"));
    }

    @Test
    void pathBoundsAreTheSameThroughEveryDoorAndRefusedTheSame() {
        PathOptions expected = new PathOptions(5, 10, 1000, Duration.ofMillis(500));
        assertEquals(expected, cliPaths("--site", "x", "--max-paths", "5", "--max-depth", "10", "--max-objects", "1000",
                "--time-limit", "500ms"));
        assertEquals(expected, StartArguments.paths(5, 10, 1000, "500ms"));

        String cli = assertThrows(IllegalArgumentException.class, () -> cliPaths("--site", "x", "--max-paths", "65")).getMessage();
        assertEquals("max paths must be between 1 and 64, not 65", cli);
        assertEquals(cli, assertThrows(IllegalArgumentException.class, () -> StartArguments.paths(65, 0, 0, "")).getMessage());
        String limit = assertThrows(IllegalArgumentException.class, () -> cliPaths("--site", "x", "--time-limit", "11s")).getMessage();
        assertEquals(limit, assertThrows(IllegalArgumentException.class, () -> StartArguments.paths(0, 0, 0, "11s")).getMessage());
    }
}
