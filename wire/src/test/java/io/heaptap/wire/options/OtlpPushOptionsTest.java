package io.heaptap.wire.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The push's URL and period: what is taken, what the path becomes, and the one-line refusals. */
class OtlpPushOptionsTest {
    @Test
    void aBaseUrlGetsTheProfilesPathAndAGivenPathIsKept() {
        assertEquals(URI.create("http://127.0.0.1:4318/v1development/profiles"), OtlpPushOptions.parse("http://127.0.0.1:4318", null).endpoint());
        assertEquals(URI.create("http://127.0.0.1:4318/v1development/profiles"), OtlpPushOptions.parse(" http://127.0.0.1:4318/ ", "").endpoint());
        assertEquals(URI.create("https://collector.example/otlp/v1development/profiles"),
                OtlpPushOptions.parse("https://collector.example/otlp/v1development/profiles", null).endpoint());
        assertEquals(URI.create("http://[::1]:4318/v1development/profiles"), OtlpPushOptions.parse("HTTP://[::1]:4318", null).endpoint());
    }

    @Test
    void thePeriodDefaultsToAMinuteAndIsBounded() {
        assertEquals(Duration.ofSeconds(60), OtlpPushOptions.parse("http://h:4318", null).every());
        assertEquals(Duration.ofMinutes(5), OtlpPushOptions.parse("http://h:4318", "5m").every());
        assertEquals(Duration.ofSeconds(1), OtlpPushOptions.parse("http://h:4318", "1s").every());
        assertRefused("between 1.0s and", "http://h:4318", "500ms");
        assertRefused("between 1.0s and", "http://h:4318", "2h");
        assertRefused("positive", "http://h:4318", "-5s");
        assertThrows(IllegalArgumentException.class, () -> OtlpPushOptions.parse("http://h:4318", "soon"));
    }

    @Test
    void badUrlsAreRefusedInOneLine() {
        assertRefused("not an http:// or https:// URL", "ftp://h/x", null);
        assertRefused("cannot read", "127.0.0.1:4318", null);
        assertRefused("not an http:// or https:// URL", "localhost:4318", null);
        assertRefused("not an http:// or https:// URL", "", null);
        assertRefused("names no host", "http:///v1development/profiles", null);
        assertRefused("query or fragment", "http://h:4318/v1development/profiles?x=1", null);
        assertRefused("query or fragment", "http://h:4318/#top", null);
        assertRefused("user info", "http://user:secret@h:4318", null);
        assertRefused("cannot read", "http://h:4318/a b", null);
    }

    @Test
    void theDescriptionSaysWhereAndHowOften() {
        assertEquals("http://127.0.0.1:4318/v1development/profiles every 30.0s",
                OtlpPushOptions.parse("http://127.0.0.1:4318", "30s").describe());
    }

    private static void assertRefused(String expected, String url, String every) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OtlpPushOptions.parse(url, every));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(!e.getMessage().contains("secret"), "no credentials echoed: " + e.getMessage());
    }
}
