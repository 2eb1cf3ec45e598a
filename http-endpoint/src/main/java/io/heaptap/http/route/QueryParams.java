package io.heaptap.http.route;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Typed access to query parameters. A value that does not parse is a 400 naming the parameter;
 * an unknown parameter is refused too, so a typo ({@code ?durtion=5m}) is not silently ignored.
 */
public final class QueryParams {
    private final Map<String, List<String>> values;

    QueryParams(Map<String, List<String>> values) {
        this.values = values;
    }

    /** Parameters already split into names and values (a test, or a door that parsed them itself). */
    public static QueryParams of(Map<String, List<String>> values) {
        return new QueryParams(Map.copyOf(values));
    }

    /** Refuses any parameter not in {@code known}. */
    public QueryParams allowOnly(String... known) {
        Set<String> allowed = Set.of(known);
        for (String name : values.keySet()) {
            if (!allowed.contains(name)) {
                throw HttpError.badParameter(name, "unknown parameter" + (allowed.isEmpty() ? " (this route takes none)"
                        : " (this route takes " + String.join(", ", new TreeSet<>(allowed)) + ")"));
            }
        }
        return this;
    }

    /** The value, null when absent; given twice is an error. */
    public String text(String name) {
        List<String> v = values.get(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        if (v.size() > 1) {
            throw HttpError.badParameter(name, "given " + v.size() + " times");
        }
        return v.get(0);
    }

    public String text(String name, String otherwise) {
        String v = text(name);
        return v == null || v.isBlank() ? otherwise : v;
    }

    public int integer(String name, int otherwise, int min, int max) {
        String v = text(name);
        if (v == null || v.isBlank()) {
            return otherwise;
        }
        int n;
        try {
            n = asciiInt(v.trim());
        } catch (NumberFormatException e) {
            throw HttpError.badParameter(name, "'" + v + "' is not a whole number (ASCII digits)");
        }
        if (n < min || n > max) {
            throw HttpError.badParameter(name, n + " is outside " + min + ".." + max);
        }
        return n;
    }

    /**
     * A whole number in ASCII digits only: {@link Integer#parseInt} also takes other scripts' digits
     * ({@code ٣} as 3), which no client means and no log shows plainly.
     */
    static int asciiInt(String s) {
        if (!s.matches("[+-]?[0-9]{1,10}")) {
            throw new NumberFormatException(s);
        }
        return Integer.parseInt(s);
    }

    /** true/false, also 1/0 (Go's {@code ?gc=1}). */
    public boolean bool(String name, boolean otherwise) {
        String v = text(name);
        if (v == null || v.isBlank()) {
            return otherwise;
        }
        return switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw HttpError.badParameter(name, "'" + v + "' is not true/false (or 1/0)");
        };
    }

    /** Parses with a heaptap parser whose IllegalArgumentException becomes a 400 naming the parameter. */
    public <T> T parsed(String name, Function<String, T> parser, T otherwise) {
        String v = text(name);
        if (v == null || v.isBlank()) {
            return otherwise;
        }
        try {
            return parser.apply(v.trim());
        } catch (IllegalArgumentException e) {
            throw HttpError.badParameter(name, e.getMessage());
        }
    }
}
