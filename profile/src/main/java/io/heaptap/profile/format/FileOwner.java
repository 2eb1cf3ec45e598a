package io.heaptap.profile.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * Who owns a file, by number. Trust decisions compare numeric uids, never names: a container run
 * under an arbitrary uid has no passwd entry, its JVM's {@code user.name} is {@code ?} while the
 * files it makes belong to {@code 4242}, and a name compared with a number refused heaptap's own
 * folders.
 */
public final class FileOwner {
    private static final int MY_UID = readMyUid(Path.of("/proc/self/status"));

    private FileOwner() {
    }

    /** This process's effective uid (the owner of the files it creates), or -1 off Linux. */
    public static int myUid() {
        return MY_UID;
    }

    /** The numeric owner of a path, not following a link at it; empty where the file system has no uids. */
    public static OptionalInt uid(Path path) throws IOException {
        try {
            return OptionalInt.of((Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS));
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return OptionalInt.empty();
        }
    }

    /** Whether this process owns the path (compared by uid; by name where there are no uids). */
    public static boolean isMine(Path path) throws IOException {
        OptionalInt uid = uid(path);
        if (uid.isPresent() && MY_UID >= 0) {
            return uid.getAsInt() == MY_UID;
        }
        return Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName().equals(System.getProperty("user.name"));
    }

    /** The owner for a message: the uid, with its name where it has one. */
    public static String describe(Path path) {
        try {
            String name = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName();
            OptionalInt uid = uid(path);
            return uid.isEmpty() || name.equals(Integer.toString(uid.getAsInt())) ? "uid " + name
                    : name + " (uid " + uid.getAsInt() + ")";
        } catch (IOException | UnsupportedOperationException e) {
            return "another user";
        }
    }

    /** The second field of the {@code Uid:} line of a /proc status file (real, effective, saved, fs); -1 if absent. */
    static int readMyUid(Path status) {
        try {
            List<String> lines = Files.readAllLines(status);
            return effectiveUid(lines);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static int effectiveUid(List<String> statusLines) {
        for (String line : statusLines) {
            if (line.startsWith("Uid:")) {
                String[] fields = line.substring(4).trim().split("\\s+");
                return fields.length >= 2 ? Integer.parseInt(fields[1]) : -1;
            }
        }
        return -1;
    }
}
