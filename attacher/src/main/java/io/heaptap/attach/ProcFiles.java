package io.heaptap.attach;

import io.heaptap.nativeagent.NativeLibrary;
import io.heaptap.profile.format.FileOwner;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Linux's /proc tells about a process without attaching to it (attaching to every JVM just
 * to list them would start an attach listener in each).
 */
final class ProcFiles {
    private static final int SIGQUIT = 3;
    private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"([^\"]+)\"", Pattern.MULTILINE);

    private ProcFiles() {
    }

    /**
     * Whether this process may attach to pid by the Attach API's rule: the same uid, or root. Compared
     * by uid (the owner of /proc/pid): a container's arbitrary uid has no name, its user.name is "?"
     * while the process's user is "4242". By name only where /proc gives no uid.
     */
    static boolean sameUserOrRoot(long pid, String ownerName) {
        int me = FileOwner.myUid();
        OptionalInt owner = uid(pid);
        if (me >= 0 && owner.isPresent()) {
            return me == 0 || owner.getAsInt() == me;
        }
        String name = System.getProperty("user.name");
        return ownerName.equals(name) || "root".equals(name);
    }

    /** The uid the process runs as (the owner of /proc/pid), if /proc tells it. */
    static OptionalInt uid(long pid) {
        try {
            return FileOwner.uid(Path.of("/proc", Long.toString(pid)));
        } catch (IOException e) {
            return OptionalInt.empty();
        }
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

    /**
     * Whether the process is gone within the grace period, or is a zombie (exited, not yet reaped
     * by its parent: ProcessHandle still calls it alive).
     */
    static boolean exitsWithin(long pid, Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        while (true) {
            if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) || isZombie(pid)) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(50);  // poll: a process that is not our child offers nothing to wait on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private static boolean isZombie(long pid) {
        return state(pid) == 'Z';
    }

    /** Whether the process is stopped (SIGSTOP, Ctrl-Z) or held by a debugger: it answers no attach until it runs. */
    static boolean isStopped(long pid) {
        char state = state(pid);
        return state == 'T' || state == 't';
    }

    /** The process's state letter from /proc/PID/stat (R, S, D, Z, T, t, ...); '?' if unreadable. */
    private static char state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int afterName = stat.lastIndexOf(')');  // the command name may hold spaces and parentheses
            return afterName > 0 && stat.length() > afterName + 2 ? stat.charAt(afterName + 2) : '?';
        } catch (IOException | SecurityException e) {
            return '?';
        }
    }

    /** Whether the process runs HotSpot (libjvm.so is mapped); empty if /proc is not readable. */
    static Optional<Boolean> runsHotSpot(long pid) {
        return mapsContain(pid, "/libjvm.so");
    }

    /**
     * Whether the process has a handler for SIGQUIT, the signal that asks a JVM to start its attach
     * listener; the default action of SIGQUIT ends the process. Empty if /proc is not readable.
     */
    static Optional<Boolean> catchesSigquit(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("SigCgt:")) {
                    long caught = Long.parseUnsignedLong(line.substring("SigCgt:".length()).trim(), 16);
                    return Optional.of((caught & (1L << (SIGQUIT - 1))) != 0);
                }
            }
            return Optional.empty();
        } catch (IOException | SecurityException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the process publishes HotSpot's performance data ({@code hsperfdata_USER/PID} in its
     * /tmp), which is what the Attach API lists JVMs by: looking for one file is much cheaper than
     * listing every JVM on the machine and reading each one's data.
     */
    static boolean hasPerfData(long pid) {
        for (Path tmp : new Path[] {Path.of("/proc", Long.toString(pid), "root", "tmp"), Path.of("/tmp")}) {
            // A prefix, not the glob "hsperfdata_*": a glob is a regex matched against each of /tmp's
            // entries, about 15 ms of a fresh CLI JVM's CPU (profiled) for a /tmp of 500 entries.
            DirectoryStream.Filter<Path> perfData = entry -> entry.getFileName().toString().startsWith("hsperfdata_");
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, perfData)) {
                for (Path dir : dirs) {
                    if (Files.isRegularFile(dir.resolve(Long.toString(pid)))) {
                        return true;
                    }
                }
            } catch (IOException | SecurityException e) {
                // not ours to look at: try the next place
            }
        }
        return false;
    }

    /**
     * Whether the JVM's attach listener runs (its socket exists): attaching then sends no signal.
     * The socket is in the JVM's own /tmp, which /proc/pid/root shows even from another mount
     * namespace.
     */
    static boolean attachListenerRunning(long pid) {
        for (Path socket : AttachSocket.of(pid).places()) {
            try {
                if (Files.exists(socket)) {
                    return true;
                }
            } catch (SecurityException e) {
                // not ours to look at: try the next place
            }
        }
        return false;
    }

    /**
     * Where the JVM's attach socket is: in its own /tmp, as /proc/pid/root shows it, and in this process's /tmp
     * (the same file when both share one /tmp).
     */
    private record AttachSocket(Path inJvm, Path host) {
        static AttachSocket of(long pid) {
            String name = ".java_pid" + pid;
            return new AttachSocket(Path.of("/proc", Long.toString(pid), "root", "tmp", name), Path.of("/tmp", name));
        }

        /** The JVM's own /tmp first: that is where it listens. */
        List<Path> places() {
            return List.of(inJvm, host);
        }
    }

    /**
     * An attach socket of the pid's name that belongs to a uid other than the JVM's: a leftover of an
     * earlier process with the same pid that was killed (SIGKILL leaves the socket behind). HotSpot
     * deletes such a leftover when it starts, but in sticky /tmp only its owner may, and the Attach API
     * neither connects through another user's socket nor signals the JVM to make one while it is there.
     * Empty when there is none, or /proc does not tell.
     */
    static Optional<String> foreignAttachSocket(long pid) {
        OptionalInt jvm = uid(pid);
        if (jvm.isEmpty()) {
            return Optional.empty();
        }
        AttachSocket sockets = AttachSocket.of(pid);
        for (Path socket : sockets.places()) {
            try {
                OptionalInt owner = FileOwner.uid(socket);
                if (owner.isPresent() && owner.getAsInt() != jvm.getAsInt()) {
                    Path host = sockets.host();
                    Path shown = socket == sockets.inJvm() && Files.exists(host) && Files.isSameFile(socket, host) ? host : socket;
                    return Optional.of(shown + " belongs to " + FileOwner.describe(socket) + ", not to the JVM's uid "
                            + jvm.getAsInt());
                }
                if (owner.isPresent()) {
                    return Optional.empty();  // the JVM's own listener
                }
            } catch (IOException | SecurityException e) {
                // absent, or not ours to look at: try the next place
            }
        }
        return Optional.empty();
    }

    /** Whether heaptap's native library is mapped into the process; empty if /proc is not readable. */
    static Optional<Boolean> heaptapLoaded(long pid) {
        return mapsContain(pid, "/" + NativeLibrary.FILE_NAME);
    }

    private static Optional<Boolean> mapsContain(long pid, String file) {
        try {
            return Optional.of(Files.readString(Path.of("/proc", Long.toString(pid), "maps")).contains(file));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }
}
