package io.heaptap.http;

import io.heaptap.profile.format.AtomicFile;
import io.heaptap.session.DumpDirectory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
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
        byte[] random = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        try {
            Path file = directory.ensureSafe().resolve(GENERATED_NAME);
            // A temporary file is created owner-only (rw-------), then renamed over any older token file.
            AtomicFile.write(file, (token + "\n").getBytes(StandardCharsets.US_ASCII));
            return new Generated(file, token);
        } catch (IOException | IllegalStateException e) {
            throw new IllegalStateException("cannot write the HTTP token into " + directory.root() + ": " + e.getMessage()
                    + " (or give one with --token-file)");
        }
    }

    /** The token (the file's first line, trimmed); a clear {@link IllegalArgumentException} otherwise. */
    public static String read(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException("token file " + file + " does not exist or is not a regular file");
            }
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
                if (perms.stream().anyMatch(OTHERS::contains)) {
                    throw new IllegalArgumentException("token file " + file + " is accessible to other users: chmod 600 " + file);
                }
            } catch (UnsupportedOperationException notPosix) {
                // a file system without POSIX permissions: nothing to check
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new IllegalArgumentException("token file " + file + " is larger than " + MAX_BYTES + " bytes: is it the right file?");
            }
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            String firstLine = text.lines().findFirst().orElse("").strip();
            if (firstLine.isEmpty()) {
                throw new IllegalArgumentException("token file " + file + " is empty");
            }
            return firstLine;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read token file " + file + ": " + e.getMessage());
        }
    }
}
