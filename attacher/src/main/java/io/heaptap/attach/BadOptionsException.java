package io.heaptap.attach;

/** The target's agent refused the capture's options as the user gave them (the message is the agent's own). */
public final class BadOptionsException extends AttachException {
    private static final long serialVersionUID = 1L;

    public BadOptionsException(long pid, String message) {
        super(pid, message);
    }
}
