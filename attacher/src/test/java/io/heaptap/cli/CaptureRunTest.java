package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.wire.options.CaptureOptions;

import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

class CaptureRunTest {

    @Test
    void theBannerSaysWhenSamplingBeganInLocalTimeAndHowLongAgo() {
        CaptureOptions options = CaptureOptions.parse("30s", null);
        String banner = CaptureRun.banner(4242, options, Instant.parse("2026-11-23T17:40:01.234Z"), 1_600_000_000L,
                ZoneOffset.ofHours(1));
        assertTrue(banner.startsWith("capturing pid 4242 for 30.0s at "), banner);
        assertTrue(banner.contains("sampling began at 18:40:01.234 (1.6 s ago)"), banner);
        assertTrue(banner.contains("Ctrl-C stops early"), banner);
    }

    @Test
    void aTargetClockAheadOfOursIsNeverANegativeLag() {
        String banner = CaptureRun.banner(1, CaptureOptions.parse("5s", null), Instant.EPOCH, -3_000_000L, ZoneOffset.UTC);
        assertTrue(banner.contains("(0.0 s ago)"), banner);
    }
}
