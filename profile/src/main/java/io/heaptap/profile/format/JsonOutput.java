package io.heaptap.profile.format;

import java.util.Locale;

/** A minimal JSON builder: enough for heaptap's documented schemas, with correct escaping. */
public final class JsonOutput {
    private final StringBuilder sb = new StringBuilder();
    private boolean needComma;

    public JsonOutput beginObject() {
        comma();
        sb.append('{');
        needComma = false;
        return this;
    }

    public JsonOutput endObject() {
        sb.append('}');
        needComma = true;
        return this;
    }

    public JsonOutput beginArray() {
        comma();
        sb.append('[');
        needComma = false;
        return this;
    }

    public JsonOutput endArray() {
        sb.append(']');
        needComma = true;
        return this;
    }

    public JsonOutput name(String name) {
        comma();
        quote(name);
        sb.append(':');
        needComma = false;
        return this;
    }

    public JsonOutput value(String value) {
        comma();
        if (value == null) {
            sb.append("null");
        } else {
            quote(value);
        }
        needComma = true;
        return this;
    }

    public JsonOutput value(long value) {
        comma();
        sb.append(value);
        needComma = true;
        return this;
    }

    public JsonOutput value(double value) {
        comma();
        if (Double.isFinite(value)) {
            sb.append(value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value)
                    : String.format(Locale.ROOT, "%.3f", value));
        } else {
            sb.append("null");
        }
        needComma = true;
        return this;
    }

    /** A double that reads back exactly (non-finite ones as the strings "NaN", "Infinity", "-Infinity"). */
    public JsonOutput exactValue(double value) {
        if (!Double.isFinite(value)) {
            return value(Double.toString(value));
        }
        comma();
        sb.append(value);
        needComma = true;
        return this;
    }

    public JsonOutput value(boolean value) {
        comma();
        sb.append(value);
        needComma = true;
        return this;
    }

    public JsonOutput field(String name, String value) {
        return name(name).value(value);
    }

    public JsonOutput field(String name, long value) {
        return name(name).value(value);
    }

    public JsonOutput field(String name, double value) {
        return name(name).value(value);
    }

    public JsonOutput field(String name, boolean value) {
        return name(name).value(value);
    }

    private void comma() {
        if (needComma) {
            sb.append(',');
        }
    }

    private void quote(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                // '<' escaped too, so JSON embedded in an HTML <script> can never close the tag.
                case '<' -> sb.append("\\u003c");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
