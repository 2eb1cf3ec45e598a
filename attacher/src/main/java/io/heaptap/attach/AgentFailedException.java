package io.heaptap.attach;

/** heaptap itself failed, in the target or here, in a way no user input explains: a bug to report. */
public final class AgentFailedException extends AttachException {
    private static final long serialVersionUID = 1L;

    public AgentFailedException(long pid, String message) {
        super(pid, message);
    }
}
