package io.heaptap.cli;

import java.io.PrintStream;
import java.util.Locale;

/** A one-line progress bar on stderr, drawn only when a person is watching a terminal. */
final class ProgressBar {
    private static final int WIDTH = 30;
    private final PrintStream err;
    private final boolean enabled;
    private final long totalMillis;

    ProgressBar(long totalMillis) {
        this.err = System.err;
        this.enabled = System.console() != null;
        this.totalMillis = Math.max(1, totalMillis);
    }

    void update(long leftMillis, long samples) {
        if (!enabled) {
            return;
        }
        int done = (int) Math.round(WIDTH * (1.0 - (double) leftMillis / totalMillis));
        done = Math.max(0, Math.min(WIDTH, done));
        err.printf(Locale.ROOT, "\r[%s%s] %5.1fs left, %,d samples ", "#".repeat(done), ".".repeat(WIDTH - done),
                leftMillis / 1000.0, samples);
        err.flush();
    }

    void clear() {
        if (enabled) {
            err.print("\r" + " ".repeat(WIDTH + 40) + "\r");
            err.flush();
        }
    }
}
