package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

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

    /** The Formatter-free texts are the Formatter's, digit for digit, and leave every other value to it. */
    @Test
    void sizesFormattedWithoutTheFormatterReadAsItWould() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(37);
        List<Double> values = new java.util.ArrayList<>(List.of(0.0, 1.0, 1023.0, 1024.0, 1536.0, 4096.0, 1048576.0, 1073741824.0,
                0.1 * 1024, 0.3 * 1024, 1.45 * 1024 * 1024, 2.05 * 1024, -1536.0, 1e300, Double.NaN));
        for (int i = 0; i < 20_000; i++) {
            values.add(random.nextBoolean() ? (double) random.nextLong(1L << 42) : random.nextInt(1 << 20) * 102.4);
        }
        for (double bytes : values) {
            double v = bytes;
            int u = 0;
            while (Math.abs(v) >= 1024 && u < 5) {
                v /= 1024;
                u++;
            }
            String unit = List.of("B", "KiB", "MiB", "GiB", "TiB", "PiB").get(u);
            String expected = u == 0 ? String.format(Locale.ROOT, "%.0f B", v) : String.format(Locale.ROOT, "%.1f %s", v, unit);
            assertEquals(expected, HumanUnits.formatBytes(bytes), () -> Double.toString(bytes));
        }
    }
}
