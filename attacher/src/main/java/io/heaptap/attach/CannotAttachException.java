package io.heaptap.attach;

/**
 * The target cannot be reached: not a HotSpot JVM, attach disabled, another user, older than
 * Java 17, stopped, an agent of another heaptap version in it, or its connection lost.
 */
public final class CannotAttachException extends AttachException {
    private static final long serialVersionUID = 1L;

    public CannotAttachException(long pid, String message) {
        super(pid, message);
    }
}
