package io.heaptap.wire.options;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.LeakWatchOptions;

import java.util.List;
import java.util.Map;

/**
 * The options of a leak watch, each declared once ({@link OptionKey}), and the one parser the CLI's
 * {@code leaks} flags, HTTP's {@code /api/leaks/start} parameters and the MBean's {@code startLeakWatch}
 * use. A missing, blank or {@code default} value is the default.
 */
public final class LeakWatchKeys {
    public static final OptionKey DURATION = new OptionKey("duration", "<duration>", OptionKey.words(LeakWatchOptions.DEFAULT_DURATION),
            "How long to watch, e.g. 5m, 1h (max 7 days). Sampling stops in the target when it ends.", List.of());
    public static final OptionKey EVERY = new OptionKey("every", "<duration>", OptionKey.words(LeakWatchOptions.DEFAULT_EVERY),
            "Time between live snapshots, 1s up to the duration.", List.of());
    public static final OptionKey INTERVAL = new OptionKey("interval", "<size>", OptionKey.words(CaptureOptions.DEFAULT_INTERVAL),
            "Mean bytes allocated between samples, per thread.", List.of());
    public static final OptionKey GC = new OptionKey("gc", "<true|false>", "false",
            "Force a full collection in the target before each snapshot. Only a whole-heap collection proves which objects are"
                    + " live: without one (a large G1 heap can run young collections only for minutes), sites stay undecided."
                    + " WARNING: each forced collection pauses the application (the report states every pause; on a multi-GiB"
                    + " heap it can take a second or more).", List.of());
    public static final List<OptionKey> ALL = List.of(DURATION, EVERY, INTERVAL, GC);

    private LeakWatchKeys() {
    }

    /** The options from text by name; absent, blank or {@code default}: the default. A refusal names its key. */
    public static LeakWatchOptions parse(Map<String, String> given) {
        GivenOptions text = GivenOptions.resolve("leak-watch option", ALL, given);
        var duration = text.read(DURATION, LeakWatchOptions.DEFAULT_DURATION, LeakWatchOptions::parseDuration);
        var every = text.read(EVERY, LeakWatchOptions.DEFAULT_EVERY, LeakWatchOptions::parseEvery);
        long interval = text.read(INTERVAL, CaptureOptions.DEFAULT_INTERVAL, CaptureOptions::parseInterval);
        boolean gc = text.flag(GC, false);
        // Each value is in range by now: what is left to refuse is a step longer than the watch.
        return GivenOptions.named(EVERY, () -> new LeakWatchOptions(duration, every, interval, gc));
    }
}
