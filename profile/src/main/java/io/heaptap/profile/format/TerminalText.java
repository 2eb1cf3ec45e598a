package io.heaptap.profile.format;

import java.time.temporal.TemporalAccessor;
import java.util.Locale;

/**
 * Text from the target (class and method names, client labels, anything an application or another
 * client chose) on its way to a terminal: control characters would be obeyed by the terminal
 * (clear the screen, set the title, fake a line), so they are shown as escapes instead: {@code \x1b},
 * {@code \n}, {@code \u202e}. Escaped: C0 and C1 controls and DEL, Unicode format characters
 * (bidirectional overrides, zero-width characters) and line and paragraph separators.
 */
public final class TerminalText {
    private TerminalText() {
    }

    public static String escape(String s) {
        if (s == null || s.codePoints().noneMatch(TerminalText::unsafe)) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        s.codePoints().forEach(c -> {
            if (!unsafe(c)) {
                sb.appendCodePoint(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c <= 0xFF) {
                sb.append(String.format(Locale.ROOT, "\\x%02x", c));
            } else {
                sb.append(String.format(Locale.ROOT, "\\u%04x", c));
            }
        });
        return sb.toString();
    }

    /** A text of several lines from elsewhere: each line escaped, the line breaks kept. */
    public static String escapeLines(String text) {
        return String.join("\n", text.lines().map(TerminalText::escape).toList()) + (text.endsWith("\n") ? "\n" : "");
    }

    static boolean unsafe(int c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }

    /**
     * {@link String#format} with every text argument escaped: the format is heaptap's, the
     * arguments may come from the target. Numbers, booleans and times are left alone.
     */
    public static String format(Locale locale, String format, Object... args) {
        return String.format(locale, format, escapeArguments(args));
    }

    static Object[] escapeArguments(Object[] args) {
        Object[] escaped = args.clone();
        for (int i = 0; i < escaped.length; i++) {
            Object a = escaped[i];
            boolean plain = a == null || a instanceof Number || a instanceof Boolean || a instanceof Character
                    || a instanceof TemporalAccessor || a instanceof java.time.Duration;
            if (!plain) {
                escaped[i] = escape(String.valueOf(a));
            }
        }
        return escaped;
    }
}
