package io.heaptap.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JavaReleaseTest {
    @Test
    void featureOfReleaseFileVersionsAndSpecificationVersions() {
        assertEquals(17, JavaRelease.featureOf("17.0.15"));
        assertEquals(25, JavaRelease.featureOf("25"));
        assertEquals(25, JavaRelease.featureOf("25-ea"));
        assertEquals(8, JavaRelease.featureOf("1.8.0_392"));
        assertEquals(0, JavaRelease.featureOf("unknown"));
        assertEquals(0, JavaRelease.featureOf(""));
    }
}
