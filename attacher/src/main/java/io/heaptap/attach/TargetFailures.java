package io.heaptap.attach;

import java.time.Duration;

/** How a broken conversation with a target is told: it exited, or the connection was lost. */
public final class TargetFailures {
    /** How long a target whose connection broke may take to be gone before heaptap calls it exited. */
    static final Duration EXIT_GRACE = Duration.ofSeconds(5);

    private TargetFailures() {
    }

    /**
     * A failure talking to the target: it exited (or is exiting: a JVM closes its connections
     * before its process ends, so it is given {@link #EXIT_GRACE} to be gone), or something else
     * broke. Either way one line, without the JDK's nested exception text.
     */
    public static AttachException lostOrFailed(Target target, Throwable e) {
        if (ProcFiles.exitsWithin(target.pid(), EXIT_GRACE)) {
            return exited(target);
        }
        return new CannotAttachException(target.pid(), "lost the connection to pid " + target.pid() + ": " + firstLine(e));
    }

    /** The target exited if it is gone within {@link #EXIT_GRACE}. */
    static boolean exitsSoon(Target target) {
        return ProcFiles.exitsWithin(target.pid(), EXIT_GRACE);
    }

    static TargetExitedException exited(Target target) {
        return new TargetExitedException(target.pid());
    }

    /** The innermost cause's message, first line only (RMI nests whole exceptions in its messages). */
    static String firstLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse("").strip();
    }
}
