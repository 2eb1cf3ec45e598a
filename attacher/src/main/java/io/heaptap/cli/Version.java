package io.heaptap.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** heaptap's version, from the build. */
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
