package io.heaptap.agent;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

/**
 * The one grammar of heaptap's agent argument string, for hands ({@code -javaagent:heaptap.jar=serve,port=8080})
 * and for the CLI ({@code capture,duration=30000ms,...,client=heaptap%20start...}): a command word, then
 * {@code ,name=value} pairs, or bare flag words ({@code ,continuous}), which read as {@code name=true}. A value holding {@code %}, {@code ,}, {@code =}, a space or any character
 * outside printable ASCII is written as {@code %XX} escapes of its UTF-8 bytes, so free text (a client
 * name, a path with a comma) survives the trip. Which names a command takes, and their types, is the
 * business of the typed records that use this ({@link CaptureRequest}, {@link AgentReply}, {@link AgentArguments}).
 */
public final class AgentArgumentCodec {
    private AgentArgumentCodec() {
    }

    /** A decoded argument string: the command word and its values in order, each name once. */
    public record Decoded(String command, Map<String, String> values) {
        /** Throws unless every name is one of {@code allowed}, naming them in the message. */
        public Decoded onlyNames(List<String> allowed) {
            for (String name : values.keySet()) {
                if (!allowed.contains(name)) {
                    throw new IllegalArgumentException("unknown heaptap " + command + " option '" + name + "' (" + String.join(", ", allowed) + ")");
                }
            }
            return this;
        }

        public String required(String name) {
            String value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException("heaptap " + command + " needs " + name + "=...");
            }
            return value;
        }

        /** An ASCII-digit number ({@link Long#parseLong} would also take other scripts' digits). */
        public long number(String name) {
            String value = required(name);
            if (!value.matches("[0-9]{1,18}")) {
                throw new IllegalArgumentException(name + " must be a whole number, not '" + value + "'");
            }
            return Long.parseLong(value);
        }

        /** A whole number as an int; one beyond int's range reads as {@link Integer#MAX_VALUE}, for the range check that follows to refuse. */
        public int count(String name) {
            return (int) Math.min(Integer.MAX_VALUE, number(name));
        }

        public boolean flag(String name) {
            return switch (required(name)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException(name + " must be true or false, not '" + values.get(name) + "'");
            };
        }
    }

    /** {@code command,name=value,...} with every value escaped; the names must be plain (letters, digits, '-', '.'). */
    public static String encode(String command, Map<String, String> values) {
        StringBuilder out = new StringBuilder(plain(command));
        values.forEach((name, value) -> out.append(',').append(plain(name)).append('=').append(escape(value)));
        return out.toString();
    }

    public static Decoded decode(String args) {
        String[] parts = args.split(",", -1);
        String command = parts[0].trim();
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].trim();
            int eq = part.indexOf('=');
            boolean flag = eq < 0 && part.matches("[A-Za-z0-9.-]+");
            if (eq < 1 && !flag) {
                throw new IllegalArgumentException("heaptap agent argument '" + part + "' should be name=value");
            }
            String name = flag ? part : part.substring(0, eq).trim();
            if (values.put(name, flag ? "true" : unescape(part.substring(eq + 1).trim())) != null) {
                throw new IllegalArgumentException("heaptap agent argument '" + name + "' is given twice");
            }
        }
        return new Decoded(command, Collections.unmodifiableMap(values));
    }

    public static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c > ' ' && c < 0x7f && c != '%' && c != ',' && c != '=') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }

    static String unescape(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            int hi = i + 2 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
            int lo = hi < 0 ? -1 : Character.digit(value.charAt(i + 2), 16);
            if (hi < 0 || lo < 0 || value.charAt(i + 1) > 'f' || value.charAt(i + 2) > 'f') {
                throw new IllegalArgumentException("'" + value + "': '%' starts a two-digit hex escape (write a '%' itself as %25)");
            }
            bytes.write(hi << 4 | lo);
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("'" + value + "' escapes bytes that are not UTF-8");
        }
    }

    private static String plain(String name) {
        if (!name.matches("[A-Za-z0-9.-]+")) {
            throw new IllegalArgumentException("not a plain agent argument name: '" + name + "'");
        }
        return name;
    }
}
