package io.heaptap.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AgentConnectionTest {
    @Test
    void featureOfReleaseFileVersionsAndSpecificationVersions() {
        assertEquals(17, AgentConnection.featureOf("17.0.15"));
        assertEquals(25, AgentConnection.featureOf("25"));
        assertEquals(25, AgentConnection.featureOf("25-ea"));
        assertEquals(8, AgentConnection.featureOf("1.8.0_392"));
        assertEquals(0, AgentConnection.featureOf("unknown"));
        assertEquals(0, AgentConnection.featureOf(""));
    }
}
