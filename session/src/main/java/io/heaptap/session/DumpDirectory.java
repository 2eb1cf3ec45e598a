package io.heaptap.session;

import io.heaptap.profile.format.AtomicFile;

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
 * default {@code java.io.tmpdir/heaptap-<pid>}, owner-only. A folder found there that is not
 * heaptap's own (another owner, a symbolic link, open to group or others: someone else may have
 * planted files in it) is refused, never used as it is. Only plain, short, printable file names are
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

    private final Path root;

    public DumpDirectory(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public static DumpDirectory forThisJvm() {
        return new DumpDirectory(Path.of(System.getProperty("java.io.tmpdir"), "heaptap-" + ProcessHandle.current().pid()));
    }

    public Path root() {
        return root;
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
            throw new IllegalArgumentException("refused '" + printable(fileName) + "': dumps are written only inside " + root
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
     * The folder, created owner-only when missing; refused when it is not safely this JVM user's own.
     * Public for the HTTP endpoint's generated token file, which lives here too.
     */
    public synchronized Path ensureSafe() throws IOException {
        boolean posix = root.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            try {
                if (posix) {
                    Files.createDirectory(root, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectory(root);
                }
            } catch (FileAlreadyExistsException raced) {
                // checked below like any existing folder
            }
        }
        if (Files.isSymbolicLink(root) || !Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException("the dump directory " + root + " is not a plain folder (a symbolic link?): refused");
        }
        String owner = Files.getOwner(root, LinkOption.NOFOLLOW_LINKS).getName();
        if (!owner.equals(System.getProperty("user.name"))) {
            throw new IllegalStateException("the dump directory " + root + " belongs to " + owner + ", not to this JVM's user: refused");
        }
        if (posix) {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(root, LinkOption.NOFOLLOW_LINKS);
            if (perms.stream().anyMatch(GROUP_OR_OTHERS::contains)) {
                throw new IllegalStateException("the dump directory " + root + " is open to other users ("
                        + PosixFilePermissions.toString(perms) + "): refused, as others may have put files in it;"
                        + " remove it, or chmod 700 " + root + " if its files are yours");
            }
        }
        return root;
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
