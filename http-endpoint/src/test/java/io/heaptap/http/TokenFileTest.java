package io.heaptap.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.session.DumpDirectory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token file the target makes in its dump directory, on a real file system. */
class TokenFileTest {
    @TempDir
    Path tmp;

    @Test
    void theGeneratedTokenIsOwnerOnlyRandomAndReadable() throws Exception {
        DumpDirectory d = new DumpDirectory(tmp.resolve("dumps"));
        TokenFile.Generated first = TokenFile.generate(d);
        TokenFile.Generated second = TokenFile.generate(d);
        assertEquals(first.file(), second.file());
        assertNotEquals(first.token(), second.token());
        assertTrue(first.token().matches("[0-9a-f]{64}"), "256 random bits");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(second.file())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d.root())));
        assertEquals(second.token(), TokenFile.read(second.file()));
    }
}
