package io.heaptap.attach;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Linux's /proc tells about a process without attaching to it (attaching to every JVM just
 * to list them would start an attach listener in each).
 */
final class ProcFiles {
    private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"([^\"]+)\"", Pattern.MULTILINE);

    private ProcFiles() {
    }

    /** The Java version from the {@code release} file of the JDK the process runs, if readable. */
    static Optional<String> javaVersion(long pid) {
        try {
            Path exe = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe"));
            Path home = exe.getParent() == null ? null : exe.getParent().getParent();
            if (home == null) {
                return Optional.empty();
            }
            Matcher m = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** Whether heaptap's native library is mapped into the process; empty if /proc is not readable. */
    static Optional<Boolean> heaptapLoaded(long pid) {
        try {
            return Optional.of(Files.readString(Path.of("/proc", Long.toString(pid), "maps")).contains("/libheaptap.so"));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }
}
