package io.heaptap.wire.options;

/**
 * A value the vocabulary refuses, with the option it was given for, so each door can name it
 * (HTTP's error carries it as {@code parameter}; the CLI's message is the same either way).
 */
public final class BadOptionException extends IllegalArgumentException {
    private final String name;

    public BadOptionException(String name, String message) {
        super(message);
        this.name = name;
    }

    /** The option's canonical name. */
    public String name() {
        return name;
    }
}
