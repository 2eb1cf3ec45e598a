package io.heaptap.attach;

/** The target JVM exited while heaptap talked to it. */
public final class TargetExitedException extends AttachException {
    private static final long serialVersionUID = 1L;

    public TargetExitedException(long pid) {
        super(pid, "the target JVM (pid " + pid + ") exited");
    }
}
