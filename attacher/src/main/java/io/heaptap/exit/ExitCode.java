package io.heaptap.exit;

/** heaptap's exit codes (the README lists them); the attach client and the CLI both end with one. */
public enum ExitCode {
    OK(0),
    /** A bug in heaptap: please report it. */
    INTERNAL(1),
    /** Bad arguments, or an --out path that cannot be written. */
    USAGE(2),
    /** No such process, or no JVM (or several) match the main-class name. */
    NO_TARGET(3),
    /**
     * The target cannot be attached to: not a JVM, attach disabled, another user, older than Java 17, an
     * agent of another heaptap version loaded in it.
     */
    CANNOT_ATTACH(4),
    /** The target refused the capture: another profiler holds the capability, a capture runs already, no native agent. */
    REFUSED(5),
    /** The target JVM exited during the command. */
    TARGET_EXITED(6),
    /** Interrupted (Ctrl-C); what was collected is still written. */
    INTERRUPTED(130);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
