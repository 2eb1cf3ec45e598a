package io.heaptap.it.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli.Result;

/** A refused command's one-line error: the documented exit code, one {@code heaptap: } line, no stack trace. */
public final class OneLineErrors {
    /** A pid no process has: arguments must be refused before heaptap ever looks for the target. */
    public static final String NO_SUCH_PID = "2147483000";

    private OneLineErrors() {
    }

    public static void assertOneLineError(Result r, int exitCode, String expected) {
        assertEquals(exitCode, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains(expected), () -> "expected '" + expected + "' in:\n" + r);
        assertFalse(r.stderr().contains("\tat ") || r.stderr().contains("Exception in"), () -> "no stack trace:\n" + r);
        assertTrue(r.stderr().lines().filter(l -> l.startsWith("heaptap: ")).count() == 1, r::toString);
    }
}
