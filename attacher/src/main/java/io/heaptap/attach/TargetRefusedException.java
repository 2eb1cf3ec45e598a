package io.heaptap.attach;

/** heaptap's agent runs in the target and said no: a capture runs already, another profiler holds the capability, ... */
public final class TargetRefusedException extends AttachException {
    private static final long serialVersionUID = 1L;

    public TargetRefusedException(long pid, String message) {
        super(pid, message);
    }
}
