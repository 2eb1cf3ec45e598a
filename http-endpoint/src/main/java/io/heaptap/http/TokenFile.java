package io.heaptap.http;

import io.heaptap.profile.format.AtomicFile;
import io.heaptap.session.DumpDirectory;

import io.heaptap.profile.format.FileOwner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The HTTP endpoint's credential in a file, treated the way ssh treats a private key: the file must
 * be readable by its owner only, so the token is not one {@code cat} away for other users.
 *
 * <p>When serving starts without a token of the user's, the target makes one: 256 random bits from
 * {@link SecureRandom}, written owner-only into the owner-only {@link DumpDirectory}. Only the target's
 * user and root can read it, which is exactly who the Attach API lets in: the endpoint gives nobody
 * more than attaching would. The file's path, never the token, is published for the CLI.
 */
public final class TokenFile {
    /** Hidden, so no dump (whose names may not start with a dot) can replace it. */
    public static final String GENERATED_NAME = ".http-token";
    private static final int RANDOM_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
    private static final long MAX_BYTES = 4096;

    private TokenFile() {
    }

    /** A fresh token and the owner-only file in the dump directory that holds it. */
    public record Generated(Path file, String token) {
    }

    /** Makes a new token and writes it (replacing the last one) into the dump directory; a clear IllegalStateException otherwise. */
    public static Generated generate(DumpDirectory directory) {
        return generate(directory, GENERATED_NAME, "the HTTP token");
    }

    /**
     * The same for another of heaptap's credentials (its JMX connector's key), in its own hidden file.
     *
     * @param what names the credential in the error, e.g. "the HTTP token"
     */
    public static Generated generate(DumpDirectory directory, String hiddenName, String what) {
        if (!hiddenName.startsWith(".")) {
            throw new IllegalArgumentException("a credential's file is hidden, so no dump can replace it: " + hiddenName);
        }
        byte[] random = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        try {
            Path file = directory.ensureSafe().resolve(hiddenName);
            // A temporary file is created owner-only (rw-------), then renamed over any older token file.
            AtomicFile.write(file, (token + "\n").getBytes(StandardCharsets.US_ASCII));
            return new Generated(file, token);
        } catch (IOException | IllegalStateException e) {
            throw new IllegalStateException("cannot write " + what + " into " + directory.root() + ": " + e.getMessage()
                    + (hiddenName.equals(GENERATED_NAME) ? " (or give one with --token-file)" : ""));
        }
    }

    /** The token from a file this process owns (the target reading its own --token-file argument). */
    public static String read(Path file) {
        return read(file, FileOwner.myUid());
    }

    /**
     * The token (the file's first line, trimmed) from a file owned by {@code ownerUid}, the uid the
     * target runs as; a clear {@link IllegalArgumentException} otherwise. Whoever owns the file knows
     * the token, so a file of another user would let that user in (root accepted nobody's 0600 file
     * for root's JVM); and a file of someone else's, say root's, served to a JVM of another user would
     * put a hash of root's secret into that user's heap, with the endpoint as an oracle for guesses.
     * The file (links resolved once) must be a regular file, not readable or writable by group or
     * others, in a folder only its owner or root can change, and the file read is the file checked.
     *
     * @param ownerUid the uid that must own the file; negative where uids are unknown (then not checked)
     */
    public static String read(Path file, int ownerUid) {
        try {
            Path real;
            try {
                real = file.toRealPath();
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("token file " + file + " does not exist");
            }
            BasicFileAttributes before = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!before.isRegularFile()) {
                throw new IllegalArgumentException("token file " + file + " is not a regular file");
            }
            checkOwner(file, real, ownerUid);
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(real, LinkOption.NOFOLLOW_LINKS);
                if (perms.stream().anyMatch(OTHERS::contains)) {
                    throw new IllegalArgumentException("token file " + file + " is accessible to other users: chmod 600 " + file);
                }
                checkFolder(file, real.getParent(), ownerUid);
            } catch (UnsupportedOperationException notPosix) {
                // a file system without POSIX permissions: nothing to check
            }
            if (before.size() > MAX_BYTES) {
                throw new IllegalArgumentException("token file " + file + " is larger than " + MAX_BYTES + " bytes: is it the right file?");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(real, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
            Object key = before.fileKey();
            if (key == null || !key.equals(Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey())
                    || bytes.length > MAX_BYTES) {
                throw new IllegalArgumentException("token file " + file + " changed while it was read: refused");
            }
            String text = new String(bytes, StandardCharsets.UTF_8).strip();
            String firstLine = text.lines().findFirst().orElse("").strip();
            if (firstLine.isEmpty()) {
                throw new IllegalArgumentException("token file " + file + " is empty");
            }
            return firstLine;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read token file " + file + ": " + e.getMessage());
        }
    }

    private static void checkOwner(Path file, Path real, int ownerUid) throws IOException {
        OptionalInt uid = FileOwner.uid(real);
        if (ownerUid < 0 || uid.isEmpty() || uid.getAsInt() == ownerUid) {
            return;
        }
        throw new IllegalArgumentException("token file " + file + " belongs to " + FileOwner.describe(real)
                + ", not to the target's user (uid " + ownerUid + "): " + (uid.getAsInt() == 0
                ? "heaptap does not hand a secret the target's user cannot read to that user's JVM"
                : "its owner knows the token, and would get in") + "; use a file of uid " + ownerUid
                + " (chown " + ownerUid + " " + file + ")");
    }

    /** A folder others can change lets them swap the file after it was checked: only a sticky one (/tmp) is fine. */
    private static void checkFolder(Path file, Path dir, int ownerUid) throws IOException {
        if (dir == null) {
            return;
        }
        OptionalInt uid = FileOwner.uid(dir);
        if (uid.isPresent() && ownerUid >= 0 && uid.getAsInt() != ownerUid && uid.getAsInt() != 0) {
            throw new IllegalArgumentException("token file " + file + " is in " + dir + ", a folder of " + FileOwner.describe(dir)
                    + ", who could swap it: keep the token in a folder of uid " + ownerUid + " or root");
        }
        int mode = (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        boolean othersWrite = (mode & 022) != 0;
        boolean sticky = (mode & 01000) != 0;
        if (othersWrite && !sticky) {
            throw new IllegalArgumentException("token file " + file + " is in " + dir + ", a folder other users can change"
                    + " (they could swap the file): keep the token in a folder only its owner can change");
        }
    }
}
