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
        return render(report, REPORT_ROWS);
    }

    /** The report with its first {@code rows} sites. */
    public byte[] render(LeakReport report, int rows) {
        String text = switch (this) {
            case TEXT -> LeakText.of(report, rows);
            case JSON -> LeakJson.of(report, rows);
            case HTML -> LeakHtml.of(report, rows);
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
