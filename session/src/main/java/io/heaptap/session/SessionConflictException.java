package io.heaptap.session;

/**
 * A request that the session's state refuses: a second start while a capture runs, a dump before
 * any capture. HTTP answers it with 409; the MXBean passes it on as a plain
 * {@link IllegalStateException} (JMX clients do not have heaptap's classes).
 */
public final class SessionConflictException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public SessionConflictException(String message) {
        super(message);
    }
}
