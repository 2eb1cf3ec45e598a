package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JvmSamplingIntervalTest {
    @Test
    void beforeJdk25TheJvmSamplesAt8KiBOrTheAskedIntervalIfSmaller() {
        assertEquals(8 * 1024, JvmSamplingInterval.forRequested(17, 512 * 1024));
        assertEquals(8 * 1024, JvmSamplingInterval.forRequested(24, 8 * 1024));
        assertEquals(4 * 1024, JvmSamplingInterval.forRequested(11, 4 * 1024));
    }

    @Test
    void fromJdk25TheJvmSamplesAtTheAskedInterval() {
        assertEquals(512 * 1024, JvmSamplingInterval.forRequested(25, 512 * 1024));
        assertEquals(4 * 1024, JvmSamplingInterval.forRequested(26, 4 * 1024));
    }

    private static final long KIB = 1024;
    private static final long GB = 1_000_000_000L;

    @Test
    void beforeJdk25TheJvmIntervalRisesWithTheAllocationRateUpTo16KiB() {
        assertEquals(8 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, 500_000_000L, 8 * KIB), "0.5 GB/s: 61k events/s at 8 KiB");
        assertEquals(16 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, GB, 8 * KIB), "1 GB/s: 122k/s at 8 KiB, 61k at 16");
        assertEquals(16 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, 13 * GB, 8 * KIB), "13 GB/s: capped at 16 KiB");
        assertEquals(8 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, -1, 16 * KIB), "rate unknown: the accurate 8 KiB");
    }

    @Test
    void theJvmIntervalNeverExceedsTheAskedOne() {
        assertEquals(16 * KIB, JvmSamplingInterval.forRate(17, 16 * KIB, 13 * GB, 8 * KIB));
        assertEquals(4 * KIB, JvmSamplingInterval.forRate(17, 4 * KIB, 13 * GB, 4 * KIB));
    }

    @Test
    void itComesDownOneStepAtATimeAndOnlyWellUnderTheThreshold() {
        // 1.5 GB/s at 16 KiB: 92k/s at 16, 183k at 8: stays.
        assertEquals(16 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, 1_500_000_000L, 16 * KIB));
        // 0.7 GB/s at 16 KiB: 8 KiB would take 85k/s, over half the threshold: stays (hysteresis).
        assertEquals(16 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, 700_000_000L, 16 * KIB));
        // 0.3 GB/s at 16 KiB: 8 KiB takes 37k/s: down to 8 KiB.
        assertEquals(8 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, 300_000_000L, 16 * KIB));
        // quiet: back to 8 KiB; an interval above the cap (set before this rule) comes down to the cap first.
        assertEquals(8 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, 0, 16 * KIB));
        assertEquals(16 * KIB, JvmSamplingInterval.forRate(17, 512 * KIB, GB, 32 * KIB));
    }

    @Test
    void fromJdk25TheRateChangesNothing() {
        assertEquals(512 * KIB, JvmSamplingInterval.forRate(25, 512 * KIB, 13 * GB, 512 * KIB));
    }

    @Test
    void aCostBoundsLeastIntervalRaisesTheJvmsBeyond16KiBButNotBeyondTheAskedOne() {
        assertEquals(500 * KIB, JvmSamplingInterval.forRate(17, 4096 * KIB, 10 * GB, 16 * KIB, 500 * KIB), "10 GB/s within 1%");
        assertEquals(16 * KIB, JvmSamplingInterval.forRate(17, 4096 * KIB, 10 * GB, 500 * KIB, 12 * KIB), "the least is below the rule's");
        assertEquals(256 * KIB, JvmSamplingInterval.forRate(17, 256 * KIB, 10 * GB, 16 * KIB, 500 * KIB), "never above the asked interval");
        assertEquals(8 * KIB, JvmSamplingInterval.forRate(17, 4096 * KIB, 100_000_000L, 8 * KIB, 0), "no least");
        assertEquals(4096 * KIB, JvmSamplingInterval.forRate(25, 4096 * KIB, 10 * GB, 4096 * KIB, 500 * KIB), "JDK 25: the asked interval");
    }
}
