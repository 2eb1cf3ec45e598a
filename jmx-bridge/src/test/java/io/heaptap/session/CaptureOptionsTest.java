package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class CaptureOptionsTest {
    static String refusal(String duration, String interval, int depth, int maxStacks) {
        return assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parse(duration, interval, depth, maxStacks))
                .getMessage();
    }

    @Test
    void defaultsAndHumanUnits() {
        CaptureOptions o = CaptureOptions.parse(null, " ", 64, 65536);
        assertEquals(Duration.ofSeconds(30), o.duration());
        assertEquals(512 * 1024, o.intervalBytes());
        assertEquals(Duration.ofMinutes(2), CaptureOptions.parse("2m", "64k", 64, 1).duration());
    }

    @Test
    void badValuesAreRefusedWithAMessageThatSaysWhy() {
        assertTrue(refusal("0", null, 64, 1).contains("duration must be positive"));
        assertTrue(refusal("-1s", null, 64, 1).contains("duration must be positive"));
        assertTrue(refusal("25h", null, 64, 1).contains("above the maximum of 24h"));
        assertTrue(refusal("never", null, 64, 1).contains("cannot read 'never' as a duration"));
        assertTrue(refusal(null, "0", 64, 1).contains("interval must be positive"));
        assertTrue(refusal(null, "-64k", 64, 1).contains("interval must be positive"));
        assertTrue(refusal(null, "2g", 64, 1).contains("above the maximum of 1 GiB"));
        assertTrue(refusal(null, null, 0, 1).contains("depth must be between 1 and 2048"));
        assertTrue(refusal(null, null, 2049, 1).contains("depth must be between 1 and 2048"));
        assertTrue(refusal(null, null, 64, 0).contains("max stacks must be between"));
    }

    @Test
    void samplerAccuracyWarningBefore25Only() {
        assertTrue(SamplerAccuracy.warningFor(17).orElseThrow().contains("JDK-8356372"));
        assertTrue(SamplerAccuracy.warningFor(21).isPresent());
        assertTrue(SamplerAccuracy.warningFor(25).isEmpty());
    }
}
