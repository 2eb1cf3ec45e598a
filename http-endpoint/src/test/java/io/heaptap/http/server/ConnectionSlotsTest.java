package io.heaptap.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.embedded.EmbeddedChannel;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ConnectionSlotsTest {
    private final ConnectionSlots slots = new ConnectionSlots();

    @Test
    void aNewcomerPushesOutTheOldestConnectionWithoutTheToken() {
        List<EmbeddedChannel> attackers = new ArrayList<>();
        for (int i = 0; i < ConnectionSlots.MAX_UNPROVEN; i++) {
            EmbeddedChannel c = new EmbeddedChannel();
            assertTrue(slots.admit(c));
            attackers.add(c);
        }
        EmbeddedChannel tokenHolder = new EmbeddedChannel();
        assertTrue(slots.admit(tokenHolder), "the token holder's connection gets in");
        assertFalse(attackers.get(0).isOpen(), "the oldest unproven connection made room");
        assertTrue(attackers.get(1).isOpen());
        assertEquals(ConnectionSlots.MAX_UNPROVEN, slots.unproven());

        slots.prove(tokenHolder);
        assertTrue(ConnectionSlots.isProven(tokenHolder));
        assertEquals(1, slots.proven());
        for (int i = 0; i < 100; i++) {
            assertTrue(slots.admit(new EmbeddedChannel()));
        }
        assertTrue(tokenHolder.isOpen(), "a proven connection is never pushed out");
        tokenHolder.close();
        assertEquals(0, slots.proven());
    }

    @Test
    void whenEverySlotIsProvenANewcomerIsRefused() {
        for (int i = 0; i < ConnectionSlots.MAX_CONNECTIONS; i++) {
            EmbeddedChannel c = new EmbeddedChannel();
            assertTrue(slots.admit(c));
            slots.prove(c);
        }
        EmbeddedChannel late = new EmbeddedChannel();
        assertFalse(slots.admit(late));
        assertEquals(ConnectionSlots.MAX_CONNECTIONS, slots.proven());
        assertEquals(0, slots.unproven());
    }

    @Test
    void provenConnectionsLeaveTheUnprovenTheRestOfTheSlots() {
        for (int i = 0; i < 40; i++) {
            EmbeddedChannel c = new EmbeddedChannel();
            slots.admit(c);
            slots.prove(c);
        }
        List<EmbeddedChannel> unproven = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            EmbeddedChannel c = new EmbeddedChannel();
            assertTrue(slots.admit(c));
            unproven.add(c);
        }
        assertEquals(24, slots.unproven(), "64 slots in all");
        assertEquals(6, unproven.stream().filter(c -> !c.isOpen()).count());
    }
}
