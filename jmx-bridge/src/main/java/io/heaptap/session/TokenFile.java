package io.heaptap.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads the HTTP endpoint's bearer token from a file, the way ssh treats a private key: the file
 * must be readable by its owner only, so the token is not one {@code cat} away for other users.
 */
public final class TokenFile {
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
    private static final long MAX_BYTES = 4096;

    private TokenFile() {
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
