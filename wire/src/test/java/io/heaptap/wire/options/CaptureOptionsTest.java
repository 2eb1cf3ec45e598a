package io.heaptap.wire.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class CaptureOptionsTest {
    static String refusal(String duration, String interval, int depth, int maxStacks) {
        return assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parse(duration, interval, depth, maxStacks, true, 65536))
                .getMessage();
    }

    static String live(int budget) {
        return assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parse(null, null, 64, 1, true, budget))
                .getMessage();
    }

    @Test
    void liveFilters() {
        assertEquals(Duration.ofSeconds(10), CaptureOptions.parseFilter("10s", 0).minAge());
        assertEquals(2, CaptureOptions.parseFilter(null, 2).minGcs());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parseFilter("-1s", 0)).getMessage()
                .contains("min age must not be negative"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parseFilter("old", 0)).getMessage()
                .contains("cannot read 'old'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parseFilter("", -1)).getMessage()
                .contains("min GCs must be 0 or more"));
    }

    @Test
    void defaultsAndHumanUnits() {
        CaptureOptions o = CaptureOptions.parse(null, " ", 64, 65536, true, 65536);
        assertEquals(Duration.ofSeconds(30), o.duration());
        assertEquals(512 * 1024, o.intervalBytes());
        assertEquals(Duration.ofMinutes(2), CaptureOptions.parse("2m", "64k", 64, 1, true, 1).duration());
    }

    @Test
    void theDefaultIsASampleRateTargetAndAnIntervalFixesIt() {
        CaptureOptions byDefault = CaptureOptions.parse(null, null, 64, 1, true, 1);
        assertTrue(byDefault.adaptive());
        assertEquals(CaptureOptions.DEFAULT_SAMPLE_RATE, byDefault.sampleRate());
        assertTrue(byDefault.costBounded(), "the default sampling bounds what the samples cost");
        assertEquals(byDefault, CaptureOptions.parse(null, byDefault.sampling(), 64, 1, true, 1), "sampling() reads back as it was");
        assertEquals("about 5,000 samples/s, fewer if they cost over 1.0% of the CPU (adaptive interval)", byDefault.describeSampling());
        CaptureOptions rate = CaptureOptions.parse(null, " 2000/s ", 64, 1, true, 1);
        assertEquals(2000, rate.sampleRate());
        assertFalse(rate.costBounded(), "a rate asked for is kept whatever it costs");
        assertEquals("about 2,000 samples/s (adaptive interval)", rate.describeSampling());
        assertFalse(CaptureOptions.parse(null, "5000/s", 64, 1, true, 1).costBounded(), "even the default's rate, asked for");
        assertEquals(rate, CaptureOptions.parse(null, rate.sampling(), 64, 1, true, 1), "sampling() reads back as it was");
        CaptureOptions fixed = CaptureOptions.parse(null, "64k", 64, 1, true, 1);
        assertFalse(fixed.adaptive());
        assertEquals(fixed, CaptureOptions.parse(null, fixed.sampling(), 64, 1, true, 1));
        assertEquals("interval 64.0 KiB", fixed.describeSampling());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CaptureOptions(Duration.ofSeconds(1), 65_536, 64, 1, true, 1, 0,
                true)).getMessage().contains("a cost bound needs a sample-rate target"));
        assertTrue(refusal(null, "9/s", 64, 1).contains("sample rate must be between 10 and 100000"));
        assertTrue(refusal(null, "100001/s", 64, 1).contains("sample rate must be between 10 and 100000"));
        assertTrue(refusal(null, "fast/s", 64, 1).contains("whole number of samples per second"));
        assertTrue(refusal(null, "\u0663\u0660/s", 64, 1).contains("whole number"), "only ASCII digits");
        assertTrue(refusal(null, "99999999999999999999/s", 64, 1).contains("between 10 and 100000 samples/s, not"));
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
        assertTrue(refusal(null, "1", 64, 1).contains("below the minimum of 4 KiB"), "issue #15: interval 1 starved the target");
        assertTrue(refusal(null, "4095", 64, 1).contains("below the minimum of 4 KiB"));
        assertEquals(4096, CaptureOptions.parse(null, "4k", 64, 1, true, 1).intervalBytes());
        assertTrue(refusal(null, "\u0663k", 64, 1).contains("cannot read"), "only ASCII digits");
        assertTrue(refusal(null, null, 0, 1).contains("depth must be between 1 and 2048"));
        assertTrue(refusal(null, null, 2049, 1).contains("depth must be between 1 and 2048"));
        assertTrue(refusal(null, null, 64, 0).contains("max stacks must be between"));
        assertTrue(live(0).contains("live budget must be between 1 and 1048576"));
        assertTrue(live(-5).contains("live budget must be between"));
        assertTrue(live(1 << 21).contains("live budget must be between"));
        assertEquals(0, CaptureOptions.parse(null, null, 64, 1, false, 0).liveBudget(), "no budget needed without live");
    }

    @Test
    void referencePathWalksFitAPauseBudget() {
        assertEquals(java.time.Duration.ofSeconds(2), PathOptions.DEFAULT.timeLimit());
        assertEquals(java.time.Duration.ofSeconds(10), PathOptions.parse(3, 32, 1000, "10s").timeLimit());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PathOptions.parse(3, 32, 1000, "11s")).getMessage()
                .contains("above the maximum of 10s"), "issue #15: a 5-minute walk was accepted");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LeakWatchOptions.parse("5m", "15s", "1k", false)).getMessage()
                .contains("below the minimum of 4 KiB"));
    }
}
