package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dump directory on a real file system: names, a foreign folder, the bound. */
class DumpDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void namesAreShortPrintableAndPlain() throws Exception {
        DumpDirectory d = new DumpDirectory(tmp.resolve("dumps"));
        assertTrue(message(() -> d.write("a\nb.txt", new byte[1])).contains("control characters"), "issue #15: a new line was accepted");
        assertTrue(message(() -> d.write("x".repeat(300), new byte[1])).contains("at most 128"), "issue #15: 300 characters gave a 500");
        assertTrue(message(() -> d.write("../up", new byte[1])).contains("plain file name"));
        assertTrue(message(() -> d.write(".http-token", new byte[1])).contains("plain file name"), "no dump replaces the token");
        assertTrue(Files.isRegularFile(d.write("ok.txt", new byte[] {1})));
    }

    @Test
    void automaticNamesNeverCollide() throws Exception {
        DumpDirectory d = new DumpDirectory(tmp.resolve("dumps"));
        Set<Path> written = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            written.add(d.writeNew(".json", new byte[] {(byte) i}));
        }
        assertEquals(20, written.size(), "issue #15: two dumps within a second shared a name");
    }

    @Test
    void theFolderIsBounded() throws Exception {
        DumpDirectory d = new DumpDirectory(tmp.resolve("dumps"));
        for (int i = 0; i < DumpDirectory.MAX_FILES; i++) {
            d.write("f" + i, new byte[10]);
        }
        d.write("f0", new byte[10]);  // replacing one is fine
        assertTrue(message(() -> d.write("one-more", new byte[10])).contains("is full"), "issue #15: 20 dumps made 20 files, no cap");
    }

    @Test
    void aFolderOpenToOthersIsRefused() throws Exception {
        Path open = tmp.resolve("open");
        Files.createDirectory(open);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        DumpDirectory d = new DumpDirectory(open);
        String why = message(() -> d.write("x.txt", new byte[1]));
        assertTrue(why.contains("open to other users"), "issue #15: a 0777 folder was used as it is: " + why);
        assertFalse(Files.exists(open.resolve("x.txt")));
    }

    private static String message(org.junit.jupiter.api.function.Executable e) {
        return assertThrows(RuntimeException.class, e).getMessage();
    }
}
