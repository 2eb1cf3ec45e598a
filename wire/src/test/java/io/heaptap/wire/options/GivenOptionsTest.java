package io.heaptap.wire.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The readers every vocabulary shares: defaults, refusals that name their key, and defaults written as users type them. */
class GivenOptionsTest {
    private static final OptionKey COUNT = new OptionKey("max-things", "<n>", "3", "Things.", List.of("maxThings"));
    private static final OptionKey FLAG = new OptionKey("gc", "<true|false>", "false", "Collect.", List.of());

    private static GivenOptions given(String... nameValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            m.put(nameValues[i], nameValues[i + 1]);
        }
        return GivenOptions.resolve("test option", List.of(COUNT, FLAG), m);
    }

    @Test
    void blankAndDefaultAreTheDefault() {
        assertEquals(3, given().count(COUNT, "max things", 3, 10));
        assertEquals(3, given("max-things", " ").count(COUNT, "max things", 3, 10));
        assertEquals(3, given("maxThings", "Default").count(COUNT, "max things", 3, 10));
        assertNull(given("gc", "default").text(FLAG));
        assertEquals(false, given("gc", "").flag(FLAG, false));
    }

    @Test
    void refusalsNameTheirKey() {
        BadOptionException range = assertThrows(BadOptionException.class, () -> given("maxThings", "11").count(COUNT, "max things", 3, 10));
        assertEquals("max-things", range.name());
        assertEquals("max things must be between 1 and 10, not 11", range.getMessage());
        assertEquals("gc", assertThrows(BadOptionException.class, () -> given("gc", "maybe").flag(FLAG, false)).name());
        assertEquals("max-things", assertThrows(BadOptionException.class, () -> given("max-things", "1", "maxThings", "2")).name());
        assertEquals("max-things", assertThrows(BadOptionException.class,
                () -> given("max-things", "x").read(COUNT, 0, Integer::parseInt)).name());
        assertThrows(IllegalArgumentException.class, () -> given("other", "1"));
    }

    @Test
    void defaultsAreWrittenAsUsersTypeThem() {
        assertEquals("5m", OptionKey.words(Duration.ofMinutes(5)));
        assertEquals("15s", OptionKey.words(Duration.ofSeconds(15)));
        assertEquals("500ms", OptionKey.words(Duration.ofMillis(500)));
        assertEquals("2h", OptionKey.words(Duration.ofHours(2)));
        assertEquals("512k", OptionKey.words(512 * 1024));
        assertEquals("1m", OptionKey.words(1 << 20));
        assertEquals("1000", OptionKey.words(1000));
    }
}
