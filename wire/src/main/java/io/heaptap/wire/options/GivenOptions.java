package io.heaptap.wire.options;

import io.heaptap.profile.format.TerminalText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The text a door was given for one vocabulary's keys (name, or an older spelling, to text), resolved to
 * the keys, with the readers every vocabulary shares: so a blank or {@code default} value is the default,
 * and a refusal names its key ({@link BadOptionException}), whichever vocabulary and door it comes through.
 */
public final class GivenOptions {
    private final Map<OptionKey, String> text;

    private GivenOptions(Map<OptionKey, String> text) {
        this.text = text;
    }

    /**
     * Each given name to its key; {@code what} names the vocabulary in the refusal of an unknown name
     * ({@code capture option}). One key given twice with two values is refused; a default beside a value is not.
     */
    public static GivenOptions resolve(String what, List<OptionKey> keys, Map<String, String> given) {
        Map<OptionKey, String> text = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : given.entrySet()) {
            OptionKey key = keys.stream().filter(k -> k.answersTo(e.getKey())).findFirst().orElseThrow(
                    () -> new IllegalArgumentException("unknown " + what + " '" + TerminalText.escape(e.getKey()) + "' ("
                            + String.join(", ", keys.stream().map(OptionKey::name).toList()) + ")"));
            if (text.containsKey(key) && !OptionKey.isDefault(text.get(key)) && !OptionKey.isDefault(e.getValue())) {
                throw new BadOptionException(key.name(), key.name() + " is given twice");
            }
            if (!text.containsKey(key) || OptionKey.isDefault(text.get(key))) {
                text.put(key, e.getValue());
            }
        }
        return new GivenOptions(text);
    }

    /** Every name a door accepts for {@code keys}: the canonical names, then the older spellings. */
    public static List<String> acceptedNames(List<OptionKey> keys) {
        List<String> names = new ArrayList<>();
        keys.forEach(k -> names.add(k.name()));
        keys.forEach(k -> names.addAll(k.aliases()));
        return List.copyOf(names);
    }

    /** The text as given (null when absent): blank or {@code default} are for the caller to read as the default. */
    public String raw(OptionKey key) {
        return text.get(key);
    }

    /** The stripped text, or null for the default (absent, blank, {@code default}). */
    public String text(OptionKey key) {
        String t = text.get(key);
        return OptionKey.isDefault(t) ? null : t.strip();
    }

    /** {@code parse} of the stripped text, or {@code otherwise} for the default; a refusal names the key. */
    public <T> T read(OptionKey key, T otherwise, Function<String, T> parse) {
        String t = text(key);
        return t == null ? otherwise : named(key, () -> parse.apply(t));
    }

    /** A whole number from 1 to {@code max} (any, for a negative max); {@code what} is how the refusal calls it. */
    public int count(OptionKey key, String what, int otherwise, int max) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        String digits = t.replace("_", "");
        if (!digits.matches("-?[0-9]{1,18}")) {  // ASCII only: Integer.parseInt reads other scripts' digits too
            throw new BadOptionException(key.name(), key.name() + " must be a whole number, not '" + shortened(digits) + "'");
        }
        long value = Long.parseLong(digits);
        if (max < 0) {
            return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
        }
        if (value < 1 || value > max) {
            throw new BadOptionException(key.name(), what + " must be between 1 and " + max + ", not " + value);
        }
        return (int) value;
    }

    /** true/1/yes/on or false/0/no/off. */
    public boolean flag(OptionKey key, boolean otherwise) {
        String t = text(key);
        if (t == null) {
            return otherwise;
        }
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new BadOptionException(key.name(), key.name() + " must be true or false, not '" + shortened(t) + "'");
        };
    }

    /** What {@code parse} gives; its IllegalArgumentException becomes a refusal that names {@code key}. */
    public static <T> T named(OptionKey key, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (BadOptionException e) {
            throw e;
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new BadOptionException(key.name(), e.getMessage());
        }
    }

    private static String shortened(String text) {
        return TerminalText.escape(text.length() > 40 ? text.substring(0, 40) + "\u2026" : text);
    }
}
