package io.heaptap.profile.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveStats;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

class TerminalTextTest {
    static final String HOSTILE = "Evil\u001b]0;PWNED\u0007\u001b[2J\u009b31m\u202eA\nfake line\r\u2028";

    @Test
    void controlFormatAndSeparatorCharactersAreShownAsEscapes() {
        assertEquals("Evil\\x1b]0;PWNED\\x07\\x1b[2J\\x9b31m\\u202eA\\nfake line\\r\\u2028", TerminalText.escape(HOSTILE));
        assertEquals("java.util.HashMap$Node[] (Ünïcödé, 日本)", TerminalText.escape("java.util.HashMap$Node[] (Ünïcödé, 日本)"));
        assertEquals(null, TerminalText.escape(null));
        assertEquals("a\\x1bb 42 1.5", TerminalText.format(Locale.ROOT, "%s %d %.1f", "a\u001bb", 42, 1.5));
        assertEquals("line \\x1b\nnext", TerminalText.escapeLines("line \u001b\nnext"));
    }

    /** Names a hostile application chose go through every report's printf escaped. */
    @Test
    void theTextReportPassesNoControlCharacterFromTheTarget() {
        Frame frame = new Frame("com.example." + HOSTILE, "run" + HOSTILE, HOSTILE + ".java", 7);
        AllocationSite site = new AllocationSite(List.of(frame), false, HOSTILE + "[]", 10, 100, 6400, 0, 0,
                LiveStats.NONE);
        AllocationProfile base = WritersTest.profile();
        AllocationProfile profile = new AllocationProfile(base.info(), base.liveInfo(), List.of(site));
        for (ProfileFormat format : List.of(ProfileFormat.TEXT, ProfileFormat.COLLAPSED)) {
            String out = new String(ProfileWriter.toBytes(profile, format), StandardCharsets.UTF_8);
            assertTrue(out.contains("Evil\\x1b]0"), out);
            assertTrue(out.codePoints().noneMatch(c -> c != '\n' && TerminalText.unsafe(c)), format + ": " + out);
        }
    }
}
