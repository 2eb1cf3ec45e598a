package io.heaptap.agent.jmx;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;

import javax.management.remote.JMXAuthenticator;
import javax.security.auth.Subject;

/**
 * The one credential heaptap's own JMX connector takes: the key in an owner-only file that only the
 * target's user and root can read (the HTTP endpoint's TokenFile rules), which is exactly who the
 * Attach API lets in. The connector listens on loopback, where any local user can reach it; the key
 * is what keeps the others out.
 */
final class ConnectorKey implements JMXAuthenticator {
    /** The user name heaptap's CLI sends; the password is the key. */
    static final String USER = "heaptap";
    private final byte[] key;

    ConnectorKey(String key) {
        this.key = key.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public Subject authenticate(Object credentials) {
        if (!(credentials instanceof String[] pair) || pair.length != 2 || !USER.equals(pair[0]) || pair[1] == null
                || !MessageDigest.isEqual(key, pair[1].getBytes(StandardCharsets.US_ASCII))) {
            throw new SecurityException("heaptap's JMX connector takes only the key in its owner-only file");
        }
        // No subject: with one, the JDK runs every operation inside Subject.doAs with its own domain
        // combiner, and a thread started there (the HTTP endpoint's event loop, from startServing) failed
        // to start in a JVM of another user. The key is the whole of the access check.
        return null;
    }
}
