package io.heaptap.exit;

/** An error for the user: printed as one line, the process exits with its code. */
public final class HeaptapException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ExitCode exitCode;

    public HeaptapException(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
