package io.heaptap.attach;

/**
 * A local JVM to attach to.
 *
 * @param pid         its process id
 * @param displayName main class or jar and arguments, as the Attach API lists it (or the command line)
 */
public record Target(long pid, String displayName) {
}
