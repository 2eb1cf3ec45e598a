package io.heaptap.cli;

import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.CaptureKeys;
import io.heaptap.wire.options.OptionKey;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of a capture, shared by {@code capture} and {@code start}: one flag {@code --name} per
 * {@link CaptureKeys} key, with its help, read by the same parser as every other door. Live tracking,
 * on by default, is turned off with the switch {@code --no-live}.
 */
record CaptureFlags(Map<String, String> given) {
    static final String NO_LIVE = "--no-live";
    static final List<Flag> FLAGS = flags();

    private static List<Flag> flags() {
        List<Flag> flags = new ArrayList<>();
        for (OptionKey key : CaptureKeys.ALL) {
            flags.add(key == CaptureKeys.LIVE ? Flag.toggle(NO_LIVE, "Do not track sampled objects (no live set, age or GCs survived).")
                    : Flag.value(key.flag(), key.value(), key.describe()));
        }
        return List.copyOf(flags);
    }

    static CaptureFlags from(Arguments args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (OptionKey key : CaptureKeys.ALL) {
            if (key == CaptureKeys.LIVE) {
                given.put(key.name(), args.has(NO_LIVE) ? "false" : null);
            } else {
                given.put(key.name(), args.value(key.flag()));
            }
        }
        return new CaptureFlags(given);
    }

    CaptureOptions options() {
        try {
            return CaptureKeys.parse(given);
        } catch (IllegalArgumentException e) {
            // The vocabulary names keys as HTTP and the agent arguments do; here they are flags.
            throw new IllegalArgumentException(e.getMessage().replace("give interval", "give --interval").replace("or rate", "or --rate"), e);
        }
    }
}
