package io.heaptap.session;

import io.heaptap.profile.format.AtomicFile;
import io.heaptap.profile.format.FileOwner;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The one folder a target writes its files to (MBean {@code dump}, the HTTP endpoint's token): by
 * default {@code java.io.tmpdir/heaptap-<pid>}, owner-only. A name found there that is not this
 * JVM's user's folder (another uid's, a symbolic link, a file: another user squatting the name, which
 * takes one {@code mkdir} per pid) is never used: the folder falls back to a fresh one with a random
 * name, {@code java.io.tmpdir/heaptap-<pid>-<random>}, made exclusively and owner-only, and
 * {@link #root()} and {@link #note()} name it. Owners are compared by uid, never by name (a container's
 * arbitrary uid has no name). heaptap's own folder found open to group or others is refused with the
 * fix to make (someone else may have put files in it). Only plain, short, printable file names are
 * accepted (no folders, no {@code ..}, no hidden names, no control characters), and the folder is
 * bounded in files and bytes, so dumps cannot fill the disk of a production host.
 */
public final class DumpDirectory {
    /** Leaves room for the temporary file's suffix within the file systems' 255-byte limit. */
    public static final int MAX_NAME_LENGTH = 128;
    public static final int MAX_FILES = 32;
    public static final long MAX_BYTES = 1L << 30;
    private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.complementOf(EnumSet.of(
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));

    private final Path preferred;
    /** The folder in use when the preferred name was not ours, else null. */
    private Path fallback;
    private String note = "";

    public DumpDirectory(Path root) {
        this.preferred = root.toAbsolutePath().normalize();
    }

    public static DumpDirectory forThisJvm() {
        return new DumpDirectory(Path.of(System.getProperty("java.io.tmpdir"), "heaptap-" + ProcessHandle.current().pid()));
    }

    /**
     * The folder in use: the preferred one, or the fallback chosen when another user holds that name
     * (found out here if no file was written yet, so that the status names the folder files will go to).
     */
    public synchronized Path root() {
        if (fallback == null && Files.exists(preferred, LinkOption.NOFOLLOW_LINKS)) {
            try {
                ensureSafe();
            } catch (IOException | RuntimeException e) {
                // reported when a file is written
            }
        }
        return fallback != null ? fallback : preferred;
    }

    /** Why the folder in use is not the preferred one (naming both), or empty. */
    public synchronized String note() {
        return note;
    }

    /** Writes a file inside the folder (through a temporary file and a rename) and returns its path. */
    public synchronized Path write(String fileName, byte[] bytes) throws IOException {
        Path dir = ensureSafe();
        Path file = dir.resolve(checkName(fileName));
        if (Files.isSymbolicLink(file) || (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file,
                LinkOption.NOFOLLOW_LINKS))) {
            throw new IllegalArgumentException("refused '" + fileName + "': it exists in " + dir + " and is not a plain file");
        }
        checkRoom(dir, file, bytes.length);
        AtomicFile.write(file, bytes);
        return file;
    }

    /**
     * Writes a file under a name of its own, {@code heaptap-<pid>-<date>-<time with ms>[-n]<extension>},
     * never the name of a file already there (two dumps in the same millisecond both stay).
     */
    public synchronized Path writeNew(String extension, byte[] bytes) throws IOException {
        Path dir = ensureSafe();
        String base = "heaptap-" + ProcessHandle.current().pid() + "-" + LocalDateTime.now().format(FileTime.FORMAT);
        for (int n = 1; ; n++) {
            String name = base + (n == 1 ? "" : "-" + n) + extension;
            if (!Files.exists(dir.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
                return write(name, bytes);
            }
        }
    }

    String checkName(String fileName) {
        if (fileName == null || fileName.isBlank()) {
            throw new IllegalArgumentException("a file name is required");
        }
        String name = fileName.trim();
        if (name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            throw new IllegalArgumentException("refused '" + printable(fileName) + "': dumps are written only inside " + root()
                    + "; give a plain file name such as profile.pb.gz");
        }
        if (name.chars().anyMatch(c -> c < 0x20 || c == 0x7f || Character.isISOControl(c))) {
            throw new IllegalArgumentException("refused '" + printable(fileName) + "': a file name must not contain control"
                    + " characters (new lines, tabs, escapes)");
        }
        if (name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("refused a file name of " + name.length() + " characters: at most "
                    + MAX_NAME_LENGTH);
        }
        return name;
    }

    /**
     * The folder, created owner-only when missing; a fresh fallback when the name is not this JVM
     * user's folder; refused when it is ours but open to others. Public for the HTTP endpoint's
     * generated token file, which lives here too.
     */
    public synchronized Path ensureSafe() throws IOException {
        Path dir = fallback != null ? fallback : preferred;
        String notOurs = prepare(dir);
        if (notOurs == null) {
            return dir;
        }
        Path fresh = createFallback(preferred);
        String problem = prepare(fresh);
        if (problem != null) {
            throw new IllegalStateException(notOurs + ", and the fallback " + fresh + " " + problem + ": refused");
        }
        fallback = fresh;
        note = notOurs + ": using " + fresh + " instead";
        return fresh;
    }

    /**
     * Creates the folder owner-only if missing; null when it is this user's own plain folder, else why
     * it is not (another user may hold the name); throws when it is ours but open to others.
     */
    private static String prepare(Path dir) throws IOException {
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            try {
                if (posix) {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectory(dir);
                }
            } catch (FileAlreadyExistsException raced) {
                // checked below like any existing folder
            }
        }
        if (Files.isSymbolicLink(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return dir + " is not a plain folder (a symbolic link or a file, owned by " + FileOwner.describe(dir) + ")";
        }
        if (!FileOwner.isMine(dir)) {
            return dir + " belongs to " + FileOwner.describe(dir) + ", not to this JVM's user (uid " + FileOwner.myUid() + ")";
        }
        if (posix) {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
            if (perms.stream().anyMatch(GROUP_OR_OTHERS::contains)) {
                throw new IllegalStateException("the dump directory " + dir + " is open to other users ("
                        + PosixFilePermissions.toString(perms) + "): refused, as others may have put files in it;"
                        + " remove it, or chmod 700 " + dir + " if its files are yours");
            }
        }
        return null;
    }

    /** A new folder beside the preferred one, with a random name nobody can hold in advance (mkdtemp). */
    private static Path createFallback(Path preferred) throws IOException {
        Path parent = preferred.getParent();
        String prefix = preferred.getFileName() + "-";
        if (parent.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return Files.createTempDirectory(parent, prefix,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return Files.createTempDirectory(parent, prefix);
    }

    private void checkRoom(Path dir, Path file, long adding) throws IOException {
        int files = 0;
        long bytes = adding;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (p.getFileName().toString().startsWith(".") || p.equals(file) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    continue;  // heaptap's own hidden files, and the file being replaced
                }
                files++;
                bytes += Files.size(p);
            }
        }
        if (files >= MAX_FILES || bytes > MAX_BYTES) {
            throw new IllegalStateException("the dump directory " + dir + " is full (" + files + " files; heaptap keeps at most "
                    + MAX_FILES + " files and 1 GiB there): delete the dumps you no longer need");
        }
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(MAX_NAME_LENGTH).forEach(c -> {
            if (c < 0x20 || c == 0x7f || Character.isISOControl(c)) {
                b.append(String.format(Locale.ROOT, "\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return s.length() > MAX_NAME_LENGTH ? b + "..." : b.toString();
    }

    /**
     * The dump files' time stamp, made at the first dump: every capture builds a DumpDirectory, and
     * the JDK's formatter classes took 8 ms of the first capture's start, while the CLI waited.
     */
    private static final class FileTime {
        static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS", Locale.ROOT);
    }
}
