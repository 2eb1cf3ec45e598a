package io.heaptap.profile.format;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The output formats, with their media types and the file names that imply them. */
public enum ProfileFormat {
    TEXT("text/plain; charset=utf-8", ".txt"),
    PPROF("application/octet-stream", ".pb.gz"),
    COLLAPSED("text/plain; charset=utf-8", ".collapsed"),
    JSON("application/json", ".json"),
    HTML("text/html; charset=utf-8", ".html"),
    /** OpenTelemetry profiles (public alpha): the proto may change between releases. */
    OTLP("application/x-protobuf", ".otlp.pb");

    private final String contentType;
    private final String extension;

    ProfileFormat(String contentType, String extension) {
        this.contentType = contentType;
        this.extension = extension;
    }

    public String contentType() {
        return contentType;
    }

    /** The usual file extension, with its dot. */
    public String extension() {
        return extension;
    }

    /**
     * Whether the format shows a dump's class census (text, JSON, the HTML page). pprof, collapsed and OTLP have no
     * place for one, so a dump in them takes none: it would cost the application a second pause for nothing.
     */
    public boolean showsCensus() {
        return this == TEXT || this == JSON || this == HTML;
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static String choices() {
        return Arrays.stream(values()).map(ProfileFormat::id).collect(Collectors.joining(", "));
    }

    /** Parses a format name; the message lists the valid ones. */
    public static ProfileFormat parse(String name) {
        for (ProfileFormat f : values()) {
            if (f.id().equalsIgnoreCase(name == null ? "" : name.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + name + "' (choose one of " + choices() + ")");
    }

    /** The format a file name implies, if any: .txt, .otlp.pb/.otlp, .pb.gz/.pprof/.pb, .collapsed/.folded, .json, .html. */
    public static Optional<ProfileFormat> fromFileName(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".txt")) {
            return Optional.of(TEXT);
        }
        if (n.endsWith(".otlp.pb") || n.endsWith(".otlp")) {  // before pprof's .pb
            return Optional.of(OTLP);
        }
        if (n.endsWith(".pb.gz") || n.endsWith(".pprof") || n.endsWith(".pb")) {
            return Optional.of(PPROF);
        }
        if (n.endsWith(".collapsed") || n.endsWith(".folded")) {
            return Optional.of(COLLAPSED);
        }
        if (n.endsWith(".json")) {
            return Optional.of(JSON);
        }
        if (n.endsWith(".html") || n.endsWith(".htm")) {
            return Optional.of(HTML);
        }
        return Optional.empty();
    }
}
