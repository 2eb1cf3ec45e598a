package io.heaptap.cli.args;

/** The command line does not fit the command's syntax: an unknown flag, a missing value, a value that is no number. */
public final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String command;

    public UsageException(String command, String message) {
        super(message);
        this.command = command;
    }

    /** The command whose help to point to, or null for heaptap's own. */
    public String command() {
        return command;
    }
}
