package io.heaptap.attach;

/** No such process, heaptap itself, or no single JVM matching a main-class name. */
public final class NoTargetException extends AttachException {
    private static final long serialVersionUID = 1L;

    public NoTargetException(long pid, String message) {
        super(pid, message);
    }
}
