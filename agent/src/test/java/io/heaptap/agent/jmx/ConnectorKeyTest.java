package io.heaptap.agent.jmx;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The connector's one credential: the user "heaptap" and the key, nothing else. */
class ConnectorKeyTest {
    private final ConnectorKey key = new ConnectorKey("00ff");

    @Test
    void theKeyLetsIn() {
        assertDoesNotThrow(() -> key.authenticate(new String[] {"heaptap", "00ff"}));
    }

    @Test
    void anythingElseIsRefused() {
        for (Object wrong : new Object[] {null, "00ff", new String[] {"00ff"}, new String[] {"heaptap", "00fe"},
                new String[] {"heaptap", "00ff0"}, new String[] {"root", "00ff"}, new String[] {"heaptap", null},
                new String[] {"heaptap", "00ff", "x"}, new Object[] {"heaptap", "00ff"}}) {
            assertThrows(SecurityException.class, () -> key.authenticate(wrong), String.valueOf(wrong));
        }
    }
}
