package io.heaptap.profile.format;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A PrintWriter for text reports read in a terminal: printf and format escape their text
 * arguments ({@link TerminalText}), so a report that prints names only through them can never
 * pass a control sequence from the target to the terminal.
 */
public final class TerminalPrintWriter extends PrintWriter {
    public TerminalPrintWriter(OutputStream out) {
        super(new OutputStreamWriter(out, StandardCharsets.UTF_8));
    }

    @Override
    public PrintWriter format(String format, Object... args) {
        return super.format(format, TerminalText.escapeArguments(args));
    }

    @Override
    public PrintWriter format(Locale locale, String format, Object... args) {
        return super.format(locale, format, TerminalText.escapeArguments(args));
    }
}
