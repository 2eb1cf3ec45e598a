package io.heaptap.cli.args;

/**
 * One option of a command: a switch ({@code --gc}) or a flag that takes a value
 * ({@code --duration 30s} or {@code --duration=30s}).
 *
 * @param name        the flag as typed, with its dashes
 * @param label       what the value is, as help shows it ({@code <duration>}); null for a switch
 * @param description what it does, with its default, for help
 */
public record Flag(String name, String label, String description) {

    public static Flag toggle(String name, String description) {
        return new Flag(name, null, description);
    }

    public static Flag value(String name, String label, String description) {
        return new Flag(name, label, description);
    }

    public boolean takesValue() {
        return label != null;
    }
}
