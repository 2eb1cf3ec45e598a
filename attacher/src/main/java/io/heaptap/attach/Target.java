package io.heaptap.attach;

import java.util.OptionalInt;

/**
 * A local JVM to attach to.
 *
 * @param pid         its process id
 * @param displayName main class or jar and arguments, as the Attach API lists it (or the command line)
 */
public record Target(long pid, String displayName) {
    /** The uid it runs as, if /proc tells it. */
    public OptionalInt uid() {
        return ProcFiles.uid(pid);
    }
}
