package io.heaptap.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.heaptap.profile.format.FileOwner;
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

    @Test
    void aTokenFileOfAnotherUidIsRefused() throws Exception {
        assumeTrue(FileOwner.myUid() == 0, "giving a file to another uid needs root (CI runs the tests as root)");
        Path file = token(tmp.resolve("nobodys"));
        Files.setAttribute(file, "unix:uid", 65534);
        String why = assertThrows(IllegalArgumentException.class, () -> TokenFile.read(file, 0)).getMessage();
        assertTrue(why.contains("belongs to") && why.contains("not to the target's user (uid 0)") && why.contains("would get in"),
                "issue #34: root accepted nobody's 0600 token file for root's JVM: " + why);
    }

    @Test
    void aSecretTheTargetsUserCannotReadIsNeverRead() throws Exception {
        assumeTrue(FileOwner.myUid() == 0, "a file of root's served to another uid's JVM: needs root");
        Path file = token(tmp.resolve("roots"));
        String why = assertThrows(IllegalArgumentException.class, () -> TokenFile.read(file, 4242)).getMessage();
        assertTrue(why.contains("not to the target's user (uid 4242)") && why.contains("cannot read"), why);
        Files.setAttribute(file, "unix:uid", 4242);
        assertEquals("secret", TokenFile.read(file, 4242), "the target's user's own file is fine");
    }

    @Test
    void aTokenFileInAFolderOthersCanChangeIsRefused() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path file = token(open.resolve("t"));
        String why = assertThrows(IllegalArgumentException.class, () -> TokenFile.read(file)).getMessage();
        assertTrue(why.contains("other users can change"), why);
        Files.setAttribute(open, "unix:mode", 01777);  // sticky, as /tmp: nobody else can rename the file away
        assertEquals("secret", TokenFile.read(file));
    }

    private static Path token(Path file) throws Exception {
        Files.writeString(file, "secret\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
