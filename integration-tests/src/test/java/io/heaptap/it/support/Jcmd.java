package io.heaptap.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** The JDK's own {@code jcmd}, as a user would run it beside heaptap: the reference a test holds heaptap to. */
public final class Jcmd {
    private Jcmd() {
    }

    /** Runs {@code jcmd pid command} of {@code jdk} and returns what it printed; fails the test when it fails. */
    public static String run(Jdk jdk, String pid, String command) throws Exception {
        Process p = new ProcessBuilder(jdk.home().resolve("bin").resolve("jcmd").toString(), pid, command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "jcmd " + command + " did not end");
        assertEquals(0, p.exitValue(), "jcmd " + command + ":\n" + out);
        return out;
    }
}
