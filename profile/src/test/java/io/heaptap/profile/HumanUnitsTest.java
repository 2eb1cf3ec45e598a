package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class HumanUnitsTest {
    @Test
    void durationsAsPeopleTypeThem() {
        assertEquals(Duration.ofSeconds(30), HumanUnits.parseDuration("30s"));
        assertEquals(Duration.ofSeconds(30), HumanUnits.parseDuration("30"));
        assertEquals(Duration.ofMillis(500), HumanUnits.parseDuration("500ms"));
        assertEquals(Duration.ofSeconds(90), HumanUnits.parseDuration("1m30s"));
        assertEquals(Duration.ofMinutes(90), HumanUnits.parseDuration("1h30m"));
        assertEquals(Duration.ofMillis(1500), HumanUnits.parseDuration("1.5s"));
        assertEquals(Duration.ofDays(1), HumanUnits.parseDuration("1d"));
        for (String bad : new String[] {"", "s", "soon", "10 parsecs", "5s3", "-5s", "1s1s", "1s1m", "30m1h"}) {
            assertThrows(IllegalArgumentException.class, () -> HumanUnits.parseDuration(bad), bad);
        }
    }

    @Test
    void sizesAreBinary() {
        assertEquals(512 * 1024, HumanUnits.parseBytes("512k"));
        assertEquals(512 * 1024, HumanUnits.parseBytes("512KiB"));
        assertEquals(64 * 1024, HumanUnits.parseBytes("64kb"));
        assertEquals(1 << 20, HumanUnits.parseBytes("1m"));
        assertEquals(3L << 30, HumanUnits.parseBytes("3g"));
        assertEquals(4096, HumanUnits.parseBytes("4096"));
        for (String bad : new String[] {"", "k", "lots", "-1k", "1x", "1e99g"}) {
            assertThrows(IllegalArgumentException.class, () -> HumanUnits.parseBytes(bad), bad);
        }
    }

    @Test
    void formatting() {
        assertEquals("512 B", HumanUnits.formatBytes(512));
        assertEquals("1.5 KiB", HumanUnits.formatBytes(1536));
        assertEquals("512.0 KiB", HumanUnits.formatBytes(512 * 1024));
        assertEquals("9999", HumanUnits.formatCount(9999));
        assertEquals("1234.6 k", HumanUnits.formatCount(1_234_567));
        assertEquals("12.3 M", HumanUnits.formatCount(12_345_678));
        assertEquals("1m30s", HumanUnits.formatDuration(Duration.ofSeconds(90)));
        assertEquals("250ms", HumanUnits.formatDuration(Duration.ofMillis(250)));
    }
}
