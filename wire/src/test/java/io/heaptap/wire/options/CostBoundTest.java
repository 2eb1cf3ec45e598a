package io.heaptap.wire.options;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;

import org.junit.jupiter.api.Test;

class CostBoundTest {
    /** Said without java.util.Formatter, and the same as the Formatter says it. */
    @Test
    void theShareReadsAsTwoSignificantDigits() {
        assertEquals(String.format(Locale.ROOT, "%.2g%%", CostBound.CPU_SHARE * 100), CostBound.describeShare());
        assertEquals("1.0%", CostBound.describeShare());
    }
}
