package io.heaptap.cli;

import io.heaptap.profile.format.FileOwner;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The folder --out writes into, opened once and used through its descriptor (openat, renameat):
 * once open, nobody can make heaptap write elsewhere by swapping a folder of the path for a link.
 *
 * <p>Before it is opened, every folder on the way, as typed and as resolved, must be one whose
 * entry only this user or root can change: its parent is theirs and closed to others, or sticky
 * (as /tmp) with the entry theirs. A folder of another user's in /tmp, or a link another user
 * planted, is refused: that user could swap it for a link to /root between any check and the write.
 * The folder itself may be shared (/tmp): its entries are then written only through a new file
 * created exclusively and renamed over the name.
 */
final class OutputFolder implements Closeable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int MAX_LINKS = 40;

    private final Path real;
    private final SecureDirectoryStream<Path> dir;
    private final boolean closedToOthers;

    private OutputFolder(Path real, SecureDirectoryStream<Path> dir, boolean closedToOthers) {
        this.real = real;
        this.dir = dir;
        this.closedToOthers = closedToOthers;
    }

    /** The folder's real path. */
    Path real() {
        return real;
    }

    /**
     * Whether only this user or root can change the folder's entries (then a device, a FIFO or a
     * hard-linked file found there is the user's to write into: nobody else can have put it there).
     */
    boolean closedToOthers() {
        return closedToOthers;
    }

    /** Opens the folder; an IllegalArgumentException naming the reason when it cannot be trusted. */
    static OutputFolder open(Path folder, String asGiven) throws IOException {
        Path typed = folder.toAbsolutePath().normalize();
        if (!Files.isDirectory(typed)) {
            throw new IllegalArgumentException("--out " + asGiven + ": the folder " + typed + " does not exist");
        }
        checkEntries(typed, asGiven);
        Path real = typed.toRealPath();
        if (!real.equals(typed)) {
            checkEntries(real, asGiven);
        }
        PosixFileAttributes checked = Files.readAttributes(real, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        DirectoryStream<Path> stream = Files.newDirectoryStream(real);
        if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
            stream.close();
            throw new IllegalArgumentException("--out " + asGiven + ": this platform cannot open a folder safely");
        }
        try {
            Object opened = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
            if (!checked.isDirectory() || checked.fileKey() == null || !checked.fileKey().equals(opened)) {
                throw new IllegalArgumentException("--out " + asGiven + ": the folder " + real + " changed while it was opened: refused");
            }
            int mode = mode(real);
            boolean closed = mine(FileOwner.uid(real)) && (mode & 022) == 0;
            return new OutputFolder(real, secure, closed);
        } catch (IOException | RuntimeException e) {
            secure.close();
            throw e;
        }
    }

    /** Each folder on the way: an entry only this user or root can change, or refused. */
    private static void checkEntries(Path path, String asGiven) throws IOException {
        Path at = path.getRoot();
        for (Path name : path) {
            Path parent = at;
            at = at.resolve(name);
            if (FileOwner.myUid() < 0) {
                continue;  // no uids to compare
            }
            OptionalInt entryOwner = FileOwner.uid(at);
            OptionalInt parentOwner = FileOwner.uid(parent.toRealPath());
            int parentMode = mode(parent.toRealPath());
            boolean parentClosed = mine(parentOwner) && (parentMode & 022) == 0;
            boolean parentSticky = mine(parentOwner) && (parentMode & 01000) != 0;
            boolean safe = parentClosed || (parentSticky && mine(entryOwner));
            if (Files.isSymbolicLink(at) && !mine(entryOwner)) {
                throw new IllegalArgumentException("--out " + asGiven + ": " + at + " is a symbolic link of " + FileOwner.describe(at)
                        + "'s: heaptap does not follow it (someone else may have planted it); give the real folder");
            }
            if (!safe) {
                throw new IllegalArgumentException("--out " + asGiven + ": the folder " + at + " (of " + FileOwner.describe(at)
                        + ", in " + parent + ") can be swapped for a link by another user while heaptap writes:"
                        + " write into a folder of yours");
            }
        }
    }

    /** This user's or root's. */
    private static boolean mine(OptionalInt uid) {
        return uid.isEmpty() || uid.getAsInt() == 0 || uid.getAsInt() == FileOwner.myUid();
    }

    private static int mode(Path path) throws IOException {
        try {
            return (Integer) Files.getAttribute(path, "unix:mode");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return 0;
        }
    }

    /** What is at the name now, not following a link; null when nothing is. */
    PosixFileAttributes entry(String name) throws IOException {
        try {
            return dir.getFileAttributeView(Path.of(name), PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Hard links to a file, read by path: only asked of a folder closed to others, where the path cannot change. */
    int links(String name) {
        try {
            return (Integer) Files.getAttribute(real.resolve(name), "unix:nlink", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 1;
        }
    }

    /** Opens an existing entry to write into it, never through a link at the name. */
    SeekableByteChannel openExisting(String name, boolean truncate) throws IOException {
        Set<OpenOption> options = new HashSet<>(Set.of(StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
        if (truncate) {
            options.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        return dir.newByteChannel(Path.of(name), options);
    }

    /** A new hidden file made exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) with these permissions (less the umask). */
    Temporary createTemporary(Set<PosixFilePermission> permissions) throws IOException {
        FileAttribute<Set<PosixFilePermission>> mode = PosixFilePermissions.asFileAttribute(permissions);
        for (int attempt = 0; ; attempt++) {
            byte[] random = new byte[8];
            RANDOM.nextBytes(random);
            String name = ".heaptap-" + HexFormat.of().formatHex(random) + ".tmp";
            try {
                SeekableByteChannel channel = dir.newByteChannel(Path.of(name), Set.of(StandardOpenOption.WRITE,
                        StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS), mode);
                return new Temporary(name, channel);
            } catch (FileAlreadyExistsException e) {
                if (attempt >= MAX_LINKS) {
                    throw e;
                }
            }
        }
    }

    /** Renames within the folder, replacing what is at {@code to} (renameat: a link at the name is replaced, not followed). */
    void rename(String from, String to) throws IOException {
        dir.move(Path.of(from), dir, Path.of(to));
    }

    /**
     * Gives a file of the folder a new name, {@code prefix<random>suffix}, that nothing had: renameat
     * would replace whatever is at a name, so the name is taken first with an exclusive empty file.
     * Returns the new name.
     */
    String linkNew(String from, String prefix, String suffix) throws IOException {
        Temporary placeholder = null;
        for (int attempt = 0; placeholder == null; attempt++) {
            byte[] random = new byte[4];
            RANDOM.nextBytes(random);
            String name = prefix + HexFormat.of().formatHex(random) + suffix;
            try {
                placeholder = new Temporary(name, dir.newByteChannel(Path.of(name), Set.of(StandardOpenOption.WRITE,
                        StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-------"))));
            } catch (FileAlreadyExistsException e) {
                if (attempt >= MAX_LINKS) {
                    throw e;
                }
            }
        }
        placeholder.channel().close();
        rename(from, placeholder.name());
        return placeholder.name();
    }

    void deleteQuietly(String name) {
        try {
            dir.deleteFile(Path.of(name));
        } catch (IOException e) {
            // already renamed, or gone: nothing left behind
        }
    }

    @Override
    public void close() throws IOException {
        dir.close();
    }

    /** A temporary file's name in the folder and its open channel. */
    record Temporary(String name, SeekableByteChannel channel) {
    }
}
