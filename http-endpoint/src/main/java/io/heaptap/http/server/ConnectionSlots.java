package io.heaptap.http.server;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.util.LinkedHashSet;

/**
 * The endpoint's connection slots, and who may hold them. Every local user can connect, so a slot
 * taken by a connection that has not shown the credential must not be one the token holder needs:
 * <ul>
 * <li>a connection is <em>unproven</em> until one of its requests passes the access check; at most
 *     {@value #MAX_UNPROVEN} are unproven at once, and each must send a whole request within
 *     {@link ChannelSetup#UNPROVEN_DEADLINE_MILLIS};</li>
 * <li>a new connection that finds the unproven share or all {@value #MAX_CONNECTIONS} slots taken
 *     closes the oldest unproven connection to make room: partial requests cannot hold the door shut,
 *     since the connection that brings the token always gets in and is answered before it could be
 *     pushed out;</li>
 * <li>proven connections (scrapers keeping theirs alive) keep their slot until idle for the ordinary
 *     deadline; only when all {@value #MAX_CONNECTIONS} are proven is a new connection closed at once.</li>
 * </ul>
 * Used on the server's one event loop only.
 */
final class ConnectionSlots {
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_UNPROVEN = 32;
    private static final AttributeKey<Boolean> PROVEN = AttributeKey.valueOf("heaptap.proven");

    /** Oldest first. */
    private final LinkedHashSet<Channel> unproven = new LinkedHashSet<>();
    private int proven;

    /** Takes a slot for a new connection, closing the oldest unproven one if need be; false when all are proven. */
    boolean admit(Channel ch) {
        if (unproven.size() >= MAX_UNPROVEN || unproven.size() + proven >= MAX_CONNECTIONS) {
            if (unproven.isEmpty()) {
                return false;
            }
            Channel oldest = unproven.iterator().next();
            unproven.remove(oldest);
            oldest.close();
        }
        unproven.add(ch);
        ch.closeFuture().addListener(f -> release(ch));
        return true;
    }

    /** The connection has shown the credential: its slot is no longer one a newcomer may take. */
    void prove(Channel ch) {
        if (unproven.remove(ch)) {
            ch.attr(PROVEN).set(Boolean.TRUE);
            proven++;
        }
    }

    static boolean isProven(Channel ch) {
        return Boolean.TRUE.equals(ch.attr(PROVEN).get());
    }

    int unproven() {
        return unproven.size();
    }

    int proven() {
        return proven;
    }

    private void release(Channel ch) {
        if (!unproven.remove(ch) && isProven(ch)) {
            proven--;
        }
    }
}
