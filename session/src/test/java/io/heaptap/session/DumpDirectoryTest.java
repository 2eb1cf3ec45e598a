package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.heaptap.profile.format.FileOwner;

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

    @Test
    void aNameAnotherUidHoldsFallsBackToAFreshFolderOfOurs() throws Exception {
        assumeTrue(FileOwner.myUid() == 0, "giving a folder to another uid needs root (CI runs the tests as root)");
        Path squatted = Files.createDirectory(tmp.resolve("heaptap-77"));
        Files.setAttribute(squatted, "unix:uid", 65534);
        Files.setPosixFilePermissions(squatted, PosixFilePermissions.fromString("rwxrwxrwx"));
        DumpDirectory d = new DumpDirectory(squatted);
        Path written = d.write("x.txt", new byte[] {1});
        assertFalse(written.startsWith(squatted), "issue #34: another user's heaptap-<pid> made every dump fail");
        assertTrue(written.getParent().getFileName().toString().startsWith("heaptap-77-"), written.toString());
        assertEquals(written.getParent(), d.root(), "the status names the folder in use");
        assertTrue(d.note().contains(squatted + " belongs to") && d.note().contains(d.root().toString()), d.note());
        assertEquals(FileOwner.myUid(), FileOwner.uid(d.root()).getAsInt());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d.root())));
        assertEquals(0, Files.list(squatted).count(), "nothing went into the other user's folder");
    }

    @Test
    void aPlantedLinkFallsBackToo() throws Exception {
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        Path link = Files.createSymbolicLink(tmp.resolve("heaptap-78"), elsewhere);
        DumpDirectory d = new DumpDirectory(link);
        Path written = d.write("x.txt", new byte[] {1});
        assertFalse(written.startsWith(link));
        assertEquals(0, Files.list(elsewhere).count(), "nothing written through the link");
        assertTrue(d.note().contains("not a plain folder"), d.note());
    }

    @Test
    void ownersAreComparedByUidNotName() throws Exception {
        // A container's arbitrary uid has no passwd entry: user.name is "?" while the folder belongs to the uid.
        String name = System.getProperty("user.name");
        System.setProperty("user.name", "?");
        try {
            DumpDirectory d = new DumpDirectory(tmp.resolve("dumps"));
            assertTrue(Files.isRegularFile(d.write("x.txt", new byte[1])));
            assertEquals(tmp.resolve("dumps"), d.root(), "issue #34: heaptap refused the folder it had just made");
            assertEquals("", d.note());
        } finally {
            System.setProperty("user.name", name);
        }
    }

    private static String message(org.junit.jupiter.api.function.Executable e) {
        return assertThrows(RuntimeException.class, e).getMessage();
    }
}
