package io.heaptap.profile.leak;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The formats of a leak report. */
public enum LeakFormat {
    TEXT("text", ".txt", "text/plain; charset=utf-8"),
    JSON("json", ".json", "application/json"),
    HTML("html", ".html", "text/html; charset=utf-8");

    /** Rows in a text or HTML report, and sites with their series in JSON. */
    public static final int REPORT_ROWS = 20;

    private final String id;
    private final String extension;
    private final String contentType;

    LeakFormat(String id, String extension, String contentType) {
        this.id = id;
        this.extension = extension;
        this.contentType = contentType;
    }

    public static LeakFormat parse(String text) {
        for (LeakFormat f : values()) {
            if (f.id.equalsIgnoreCase(text.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown leak report format '" + text + "': use text, json or html");
    }

    /** From a file name's extension, or null. */
    public static LeakFormat fromFileName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (LeakFormat f : values()) {
            if (lower.endsWith(f.extension)) {
                return f;
            }
        }
        return null;
    }

    public String id() {
        return id;
    }

    public String contentType() {
        return contentType;
    }

    public byte[] render(LeakReport report) {
        String text = switch (this) {
            case TEXT -> LeakText.of(report, REPORT_ROWS);
            case JSON -> LeakJson.of(report, REPORT_ROWS);
            case HTML -> LeakHtml.of(report, REPORT_ROWS);
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
