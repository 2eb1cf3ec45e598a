package io.heaptap.profile.census;

/** The formats of a census asked for on its own. */
public enum CensusFormat {
    TEXT("text", "text/plain; charset=utf-8"),
    JSON("json", "application/json");

    /** Classes named when the request does not say: enough to see what holds a heap on one screen. */
    public static final int DEFAULT_CLASSES = 20;

    private final String id;
    private final String contentType;

    CensusFormat(String id, String contentType) {
        this.id = id;
        this.contentType = contentType;
    }

    /** text or json; null or blank: text. */
    public static CensusFormat parse(String text) {
        if (text == null || text.isBlank()) {
            return TEXT;
        }
        for (CensusFormat f : values()) {
            if (f.id.equalsIgnoreCase(text.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown census format '" + text + "': use text or json");
    }

    public String contentType() {
        return contentType;
    }

    public String render(CensusReading reading, long pid) {
        return switch (this) {
            case TEXT -> CensusText.of(reading, pid);
            case JSON -> CensusJson.of(reading, pid);
        };
    }
}
