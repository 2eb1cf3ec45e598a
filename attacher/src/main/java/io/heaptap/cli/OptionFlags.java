package io.heaptap.cli;

import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.wire.options.OptionKey;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A vocabulary's keys as command-line flags, {@code --name}, with the key's help; and what was typed, as
 * the name-to-text map the vocabulary's parser reads, as it reads every other door's.
 */
final class OptionFlags {
    private OptionFlags() {
    }

    /** {@code --name <value>}, with the key's help and default. */
    static Flag value(OptionKey key) {
        return Flag.value(key.flag(), key.value(), key.describe());
    }

    /** A switch {@code --name} that sets a true-or-false key; off unless given. */
    static Flag toggle(OptionKey key) {
        return Flag.toggle(key.flag(), key.help());
    }

    /** Each key's text as typed (null when absent); a switch given reads {@code true}. */
    static Map<String, String> given(Arguments args, List<OptionKey> keys, List<OptionKey> switches) {
        Map<String, String> given = new LinkedHashMap<>();
        for (OptionKey key : keys) {
            given.put(key.name(), switches.contains(key) ? (args.has(key.flag()) ? "true" : null) : args.value(key.flag()));
        }
        return given;
    }
}
