package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the profile says when the cost bound raised the JVM's interval before JDK 25. */
class SamplerAccuracyTest {
    @Test
    void theBiasIsReadFromTheMeasuredIntervals() {
        assertEquals(0.003, SamplerAccuracy.biasAt(8 * 1024), 1e-9);
        assertEquals(0.026, SamplerAccuracy.biasAt(64 * 1024), 1e-9);
        assertEquals(0.06, SamplerAccuracy.biasAt(128 * 1024), 1e-9);
        assertEquals(0.36, SamplerAccuracy.biasAt(512 * 1024), 1e-9);
        double at256 = SamplerAccuracy.biasAt(256 * 1024);
        assertTrue(at256 > 0.06 && at256 < 0.36, "between its neighbours: " + at256);
        assertTrue(Double.isNaN(SamplerAccuracy.biasAt(1024 * 1024)), "beyond what was measured: not claimed");
    }

    @Test
    void aRaisedJvmIntervalIsSaidWithItsBias() {
        assertTrue(SamplerAccuracy.biasWarning(17, 16 * 1024).isEmpty(), "16 KiB is the accurate default's");
        assertTrue(SamplerAccuracy.biasWarning(25, 1 << 20).isEmpty(), "JDK 25 has no interval-dependent bias");
        String at128 = SamplerAccuracy.biasWarning(17, 128 * 1024).orElseThrow();
        assertTrue(at128.contains("128.0 KiB") && at128.contains("6.0%") && at128.contains("--rate"), at128);
        String beyond = SamplerAccuracy.biasWarning(21, 2 << 20).orElseThrow();
        assertTrue(beyond.contains("not to be trusted"), beyond);
    }

    @Test
    void samplerAccuracyWarningBefore25Only() {
        assertTrue(SamplerAccuracy.warningFor(17).orElseThrow().contains("JDK-8356372"));
        assertTrue(SamplerAccuracy.warningFor(21).isPresent());
        assertTrue(SamplerAccuracy.warningFor(25).isEmpty());
    }
}
