package io.heaptap.profile.format;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class FileOwnerTest {
    @Test
    void theEffectiveUidIsTheSecondField() {
        assertEquals(4242, FileOwner.effectiveUid(List.of("Name:\tjava", "Uid:\t1000\t4242\t4242\t4242", "Gid:\t0\t0\t0\t0")));
        assertEquals(-1, FileOwner.effectiveUid(List.of("Name:\tjava")));
    }

    @Test
    void aFileThisProcessMadeIsItsOwnAndAnotherUidsIsNot(@TempDir Path dir) throws IOException {
        Path mine = Files.createFile(dir.resolve("mine"));
        assertTrue(FileOwner.myUid() >= 0, "Linux has /proc/self/status");
        assertEquals(FileOwner.myUid(), FileOwner.uid(mine).getAsInt());
        assertTrue(FileOwner.isMine(mine));
        assumeTrue(FileOwner.myUid() == 0, "giving a file to uid 4242 (no passwd entry) needs root");
        Files.setAttribute(mine, "unix:uid", 4242);
        assertFalse(FileOwner.isMine(mine));
        assertEquals("uid 4242", FileOwner.describe(mine));
    }
}
