package io.heaptap.session;

import io.heaptap.profile.format.AtomicFile;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The one folder a target writes dump files to (MBean {@code dump}, JConsole users): by default
 * {@code java.io.tmpdir/heaptap-<pid>}, owner-only. Only plain file names are accepted: no
 * folders, no {@code ..}, no absolute paths; a symbolic link, at the name or as the folder
 * itself, is refused, so nobody can redirect a dump outside it.
 */
public final class DumpDirectory {
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
    public Path write(String fileName, byte[] bytes) throws IOException {
        Path dir = ensureSafe();
        Path file = dir.resolve(checkName(fileName));
        if (Files.isSymbolicLink(file) || (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file,
                LinkOption.NOFOLLOW_LINKS))) {
            throw new IllegalArgumentException("refused '" + fileName + "': it exists in " + dir + " and is not a plain file");
        }
        AtomicFile.write(file, bytes);
        return file;
    }

    String checkName(String fileName) {
        if (fileName == null || fileName.isBlank()) {
            throw new IllegalArgumentException("a file name is required");
        }
        String name = fileName.trim();
        if (name.contains("/") || name.contains("\\") || name.contains("\0") || name.startsWith(".")) {
            throw new IllegalArgumentException("refused '" + fileName + "': dumps are written only inside " + root
                    + "; give a plain file name such as profile.pb.gz");
        }
        return name;
    }

    private Path ensureSafe() throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            try {
                if (root.getFileSystem().supportedFileAttributeViews().contains("posix")) {
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
        return root;
    }
}
