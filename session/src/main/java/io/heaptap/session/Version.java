package io.heaptap.session;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** heaptap's version, from the build: the same for the CLI and the agent in a target. */
public final class Version {
    private Version() {
    }

    public static String current() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // fall through to "unknown"
        }
        return p.getProperty("version", "unknown");
    }
}
