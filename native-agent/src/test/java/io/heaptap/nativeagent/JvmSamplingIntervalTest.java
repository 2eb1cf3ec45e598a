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
}
