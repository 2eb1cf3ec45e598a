package io.heaptap.profile.format;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a profile file through a temporary file in the same folder and a rename: nobody ever
 * sees half a file, and a symbolic link planted at the name is replaced, not followed.
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    public static void write(Path file, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), ".heaptap-", ".tmp");
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
