package io.heaptap.nativeagent;

/** The native agent refused or could not do something; the message says what to do. */
public final class NativeAgentException extends Exception {
    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** libheaptap.so could not be loaded or JVMTI is missing. */
        UNAVAILABLE,
        /** Another agent (async-profiler, Datadog, ...) holds the heap-sampling capability. */
        CAPABILITY_HELD,
        /** A capture is already running. */
        ALREADY_RUNNING,
        /** JVMTI returned an unexpected error. */
        JVMTI_ERROR
    }

    private final Reason reason;

    public NativeAgentException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** With the I/O failure behind it (the temporary folder full or read-only, say), for the CLI to tell apart. */
    public NativeAgentException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
