package io.heaptap.cli;

import io.heaptap.profile.format.TerminalText;

import java.util.Locale;

/**
 * What the CLI prints on stdout, with every text argument escaped ({@link TerminalText}): names,
 * labels, states and messages come from the target, which another client or the application may
 * have chosen to hold terminal control sequences.
 */
final class Terminal {
    private Terminal() {
    }

    static void printf(String format, Object... args) {
        System.out.print(TerminalText.format(Locale.ROOT, format, args));
    }

    static void println(String text) {
        System.out.println(TerminalText.escape(text));
    }
}
