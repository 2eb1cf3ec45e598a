package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the library is put, and that nobody's copy but this build's is ever handed to a JVM. */
class NativeLibraryTest {
    @TempDir
    Path tmp;

    private static byte[] library() throws Exception {
        try (InputStream in = NativeLibrary.class.getResourceAsStream(NativeLibrary.platform() + "/" + NativeLibrary.FILE_NAME)) {
            return in.readAllBytes();
        }
    }

    private Path sharedCopy() throws Exception {
        return tmp.resolve("heaptap-native-" + System.getProperty("user.name"))
                .resolve(NativeLibrary.buildHash().substring(0, 32)).resolve(NativeLibrary.FILE_NAME);
    }

    @Test
    void theBuildsHashIsTheLibrarysSha256() throws Exception {
        String computed = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(library()));
        assertEquals(computed, NativeLibrary.buildHash());
    }

    @Test
    void theLibraryGoesToAFolderNamedAfterItsContentAndStaysForTheNextLoad() throws Exception {
        NativeLibrary.Extracted first = NativeLibrary.extract(tmp);
        assertEquals(sharedCopy(), first.path());
        assertFalse(first.oneOff());
        assertArrayEquals(library(), Files.readAllBytes(first.path()));
        first.loaded();
        NativeLibrary.Extracted second = NativeLibrary.extract(tmp);
        assertEquals(first.path(), second.path());
        assertTrue(Files.exists(second.path()), "the shared copy is kept");
    }

    @Test
    void aChangedCopyIsReplacedBeforeUse() throws Exception {
        Path lib = NativeLibrary.extract(tmp).path();
        byte[] other = library();
        other[other.length / 2] ^= 1;  // same size, same owner and permissions: only the bytes differ
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rw-r--r--"));
        Files.write(lib, other);
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("r-xr-xr-x"));
        NativeLibrary.Extracted again = NativeLibrary.extract(tmp);
        assertEquals(lib, again.path());
        assertArrayEquals(library(), Files.readAllBytes(again.path()));
    }

    @Test
    void aFolderOthersCanWriteIsNotUsedAndTheOneOffCopyIsDeletedAfterTheLoad() throws Exception {
        Path base = tmp.resolve("heaptap-native-" + System.getProperty("user.name"));
        Files.createDirectory(base);
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxrwxrwx"));
        NativeLibrary.Extracted lib = NativeLibrary.extract(tmp);
        assertTrue(lib.oneOff());
        assertNotEquals(base, lib.path().getParent().getParent());
        assertArrayEquals(library(), Files.readAllBytes(lib.path()));
        lib.loaded();
        assertFalse(Files.exists(lib.path()));
        assertFalse(Files.exists(lib.path().getParent()));
    }
}
