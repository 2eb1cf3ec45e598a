package io.heaptap.launcher;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Where the running heaptap.jar is, found from the launcher's own code source. */
public final class HeaptapJar {
    private HeaptapJar() {
    }

    public static Path path() {
        try {
            return Path.of(HeaptapJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot locate heaptap.jar: " + e, e);
        }
    }
}
