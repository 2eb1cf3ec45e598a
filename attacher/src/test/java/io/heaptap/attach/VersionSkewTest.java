package io.heaptap.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VersionSkewTest {
    @Test
    void theSameVersionPasses() {
        assertTrue(VersionSkew.check(42, "0.2.0", "0.2.0").isEmpty());
    }

    @Test
    void anotherVersionIsRefusedInOneLineThatSaysWhatToDo() {
        CannotAttachException e = VersionSkew.check(42, "0.1.0", "0.2.0").orElseThrow();
        assertEquals(42, e.pid());
        String line = e.getMessage();
        assertFalse(line.contains("\n"), line);
        assertTrue(line.startsWith("pid 42 already runs heaptap's agent 0.1.0 "), line);
        assertTrue(line.contains("this CLI is heaptap 0.2.0"), line);
        assertTrue(line.contains("use heaptap 0.1.0's CLI with this JVM, or restart the JVM"), line);
    }

    @Test
    void anAgentThatCannotSayItsVersionIsAnotherVersion() {
        for (String unknown : new String[] {null, "", " "}) {
            CannotAttachException e = VersionSkew.check(7, unknown, "0.2.0").orElseThrow();
            assertEquals(7, e.pid());
            assertTrue(e.getMessage().contains("agent of an unknown version"), e.getMessage());
            assertTrue(e.getMessage().contains("use the heaptap CLI that loaded it with this JVM"), e.getMessage());
        }
    }
}
