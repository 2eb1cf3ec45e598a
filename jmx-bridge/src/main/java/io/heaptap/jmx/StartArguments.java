package io.heaptap.jmx;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.wire.options.PathOptions;
import io.heaptap.wire.options.ServeOptions;
import io.heaptap.wire.options.CaptureKeys;
import io.heaptap.wire.options.LeakWatchKeys;
import io.heaptap.wire.options.OptionKey;
import io.heaptap.wire.options.PathKeys;
import io.heaptap.wire.options.ServeKeys;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MBean's option parameters (start, startLeakWatch, referencePaths, startServing, startOtlpPush) as the option vocabularies read them. JConsole fills a String field with
 * nothing or with its type's name ("String") and a number field with 0: all of them mean the default here,
 * as a blank or {@code default} does through every door, because 0 frames, stacks or tracked objects is
 * never a capture anyone asks for.
 */
public final class StartArguments {
    /** What JConsole writes into an untouched String field. */
    static final String JCONSOLE_PLACEHOLDER = "String";

    private StartArguments() {
    }

    /** The options of {@link HeaptapMXBean}'s start, in its parameter order. */
    public static CaptureOptions options(String duration, String interval, String rate, int depth, int maxStacks, String live,
                                         int liveBudget, String liveBytes) {
        Map<String, String> given = new LinkedHashMap<>();
        given.put(CaptureKeys.DURATION.name(), text(duration));
        given.put(CaptureKeys.INTERVAL.name(), text(interval));
        given.put(CaptureKeys.RATE.name(), text(rate));
        given.put(CaptureKeys.DEPTH.name(), count(depth));
        given.put(CaptureKeys.MAX_STACKS.name(), count(maxStacks));
        given.put(CaptureKeys.LIVE.name(), text(live));
        given.put(CaptureKeys.LIVE_BUDGET.name(), count(liveBudget));
        given.put(CaptureKeys.LIVE_BYTES.name(), text(liveBytes));
        return CaptureKeys.parse(given);
    }

    /** The options of {@link HeaptapMXBean}'s startLeakWatch, in its parameter order. */
    public static LeakWatchOptions leakWatch(String duration, String every, String interval, boolean gc) {
        Map<String, String> given = new LinkedHashMap<>();
        given.put(LeakWatchKeys.DURATION.name(), text(duration));
        given.put(LeakWatchKeys.EVERY.name(), text(every));
        given.put(LeakWatchKeys.INTERVAL.name(), text(interval));
        given.put(LeakWatchKeys.GC.name(), Boolean.toString(gc));
        return LeakWatchKeys.parse(given);
    }

    /** The bounds of {@link HeaptapMXBean}'s referencePaths, in its parameter order. */
    public static PathOptions paths(int maxPaths, int maxDepth, int maxObjects, String timeLimit) {
        Map<String, String> given = new LinkedHashMap<>();
        given.put(PathKeys.MAX_PATHS.name(), count(maxPaths));
        given.put(PathKeys.MAX_DEPTH.name(), count(maxDepth));
        given.put(PathKeys.MAX_OBJECTS.name(), count(maxObjects));
        given.put(PathKeys.TIME_LIMIT.name(), text(timeLimit));
        return PathKeys.parse(given);
    }

    /** How {@link HeaptapMXBean}'s startServing asks to serve, in its parameter order; port 0 is any free port. */
    public static ServeOptions serve(String bind, int port, String token, String allowOrigin) {
        Map<String, String> given = new LinkedHashMap<>();
        given.put(ServeKeys.BIND.name(), text(bind));
        given.put(ServeKeys.PORT.name(), Integer.toString(port));
        given.put(ServeKeys.TOKEN.name(), text(token));
        given.put(ServeKeys.CORS_ORIGIN.name(), text(allowOrigin));
        return ServeKeys.parse(given, OptionKey::name).serve();
    }

    /** The push {@link HeaptapMXBean}'s startOtlpPush asks for, in its parameter order. */
    public static OtlpPushOptions otlpPush(String url, String every) {
        Map<String, String> given = new LinkedHashMap<>();
        given.put(ServeKeys.OTLP_PUSH.name(), text(url));
        given.put(ServeKeys.OTLP_EVERY.name(), text(every));
        OtlpPushOptions push = ServeKeys.push(given);
        if (push == null) {
            throw new IllegalArgumentException(ServeKeys.OTLP_PUSH.name() + ": give the receiver's URL, for example http://127.0.0.1:4318");
        }
        return push;
    }

    /** Null for what asks for the default: blank, {@code default} or JConsole's placeholder. */
    static String text(String value) {
        return OptionKey.isDefault(value) || value.strip().equals(JCONSOLE_PLACEHOLDER) ? null : value;
    }

    private static String count(int value) {
        return value == 0 ? null : Integer.toString(value);
    }
}
