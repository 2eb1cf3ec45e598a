package io.heaptap.attach;

/**
 * What stopped heaptap from doing what was asked of a target, one type per reason and the message
 * one line for the user. The attach layer says what happened; the CLI decides what exit code that is.
 */
public abstract sealed class AttachException extends RuntimeException
        permits NoTargetException, CannotAttachException, TargetRefusedException, TargetExitedException,
        BadOptionsException, AgentFailedException {
    private static final long serialVersionUID = 1L;
    private final long pid;

    AttachException(long pid, String message) {
        super(message);
        this.pid = pid;
    }

    /** The target's process id; -1 when the user named no single process (a main class that matched none or several). */
    public long pid() {
        return pid;
    }
}
