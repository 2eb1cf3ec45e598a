package io.heaptap.wire.options;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One option, declared once for every door: its canonical name ({@code max-stacks}), what its value is,
 * the default and range in words, and the help text. The CLI spells it {@code --max-stacks}, HTTP
 * {@code max-stacks}, the agent arguments {@code max-stacks=}, and JMX, whose parameter names are Java
 * identifiers, {@code maxStacks}: all derived from the name here, so no door can drift.
 *
 * @param name     canonical name: lower-case words joined by '-'
 * @param value    what the value looks like, for help ({@code <size>})
 * @param defaults the default in words, for help and JMX tooltips
 * @param help     what it does, its range and units
 * @param aliases  older spellings still accepted (HTTP's {@code maxStacks}), never written
 */
public record OptionKey(String name, String value, String defaults, String help, List<String> aliases) {
    /** The word any door may give to ask for the default, like a blank value. */
    public static final String DEFAULT = "default";

    public OptionKey {
        if (!name.matches("[a-z]+(-[a-z]+)*")) {
            throw new IllegalArgumentException("not a canonical option name: " + name);
        }
        aliases = List.copyOf(aliases);
    }

    /*
     * equals and hashCode written out: the generated ones bootstrap through invokedynamic on first use
     * (java.lang.runtime.ObjectMethods), and keys are hashed in every CLI run before it reaches the
     * target; the bootstrap cost that run about 100 ms of a start that aims at 500.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof OptionKey k && name.equals(k.name) && value.equals(k.value) && defaults.equals(k.defaults)
                && help.equals(k.help) && aliases.equals(k.aliases);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, value, defaults, help, aliases);
    }

    /** The CLI's flag: {@code --max-stacks}. */
    public String flag() {
        return "--" + name;
    }

    /** The JMX parameter name: {@code max-stacks} becomes {@code maxStacks}. */
    public String camelName() {
        StringBuilder out = new StringBuilder();
        for (String word : name.split("-")) {
            out.append(out.length() == 0 ? word : word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1));
        }
        return out.toString();
    }

    /** Help with its default, as the CLI and JMX tooltips show it. */
    public String describe() {
        return help + " Default: " + defaults + ".";
    }

    /** Whether a name given at a door means this key. */
    public boolean answersTo(String given) {
        return name.equals(given) || aliases.contains(given);
    }

    /** Null, blank or {@code default}: the door asks for the default. */
    public static boolean isDefault(String text) {
        return text == null || text.isBlank() || text.strip().equalsIgnoreCase(DEFAULT);
    }

    /** A default as a user would type it: {@code 5m}, {@code 15s}, {@code 500ms}. */
    public static String words(Duration d) {
        long ms = d.toMillis();
        for (long[] unit : new long[][] {{3_600_000, 'h'}, {60_000, 'm'}, {1000, 's'}}) {
            if (ms % unit[0] == 0) {
                return ms / unit[0] + String.valueOf((char) unit[1]);
            }
        }
        return ms + "ms";
    }

    /** A size as a user would type it: {@code 512k}, {@code 1m}. */
    public static String words(long bytes) {
        for (long[] unit : new long[][] {{1L << 30, 'g'}, {1L << 20, 'm'}, {1L << 10, 'k'}}) {
            if (bytes != 0 && bytes % unit[0] == 0) {
                return bytes / unit[0] + String.valueOf((char) unit[1]);
            }
        }
        return Long.toString(bytes);
    }
}
