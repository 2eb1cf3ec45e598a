package io.heaptap.cli.args;

import java.util.ArrayList;
import java.util.List;

/**
 * What a command accepts and what help says about it.
 *
 * @param name         the command's name
 * @param description  paragraphs of help
 * @param operand      its one positional argument, or null for none
 * @param flags        its options, in help order (help and version are every command's, not listed here)
 * @param hidden       left out of the command list (an internal command)
 */
public record Syntax(String name, List<String> description, Operand operand, List<Flag> flags, boolean hidden) {

    /** A command's one positional argument. */
    public record Operand(String label, String description) {
    }

    public Syntax {
        description = List.copyOf(description);
        flags = List.copyOf(flags);
    }

    public static Syntax of(String name, String description, Operand operand, List<Flag> flags) {
        return new Syntax(name, List.of(description), operand, flags, false);
    }

    /** The flag with this name, or null. */
    public Flag flag(String flagName) {
        for (Flag f : flags) {
            if (f.name().equals(flagName)) {
                return f;
            }
        }
        return null;
    }

    /** Lists of flags shared by several commands, joined. */
    @SafeVarargs
    public static List<Flag> join(List<Flag>... groups) {
        List<Flag> all = new ArrayList<>();
        for (List<Flag> g : groups) {
            all.addAll(g);
        }
        return all;
    }
}
