package io.heaptap.agent;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stops the capture a {@link CaptureRequest} started, through the Attach API, when the CLI that
 * started it cannot follow it (its JMX connection failed, for one): no capture is left running
 * that nobody watches. It stops that capture only, never a later one someone else started.
 *
 * @param startedAt the {@link AgentReply#startedAt()} of the capture to stop
 * @param reason    why, as the capture's end is reported
 */
public record StopRequest(Instant startedAt, String reason) {
    public static final String COMMAND = "stop";
    private static final List<String> NAMES = List.of("started-at", "reason");

    public String encode() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("started-at", text(startedAt));
        values.put("reason", reason);
        return AgentArgumentCodec.encode(COMMAND, values);
    }

    static StopRequest decode(AgentArgumentCodec.Decoded decoded) {
        decoded.onlyNames(NAMES);
        return new StopRequest(instant(decoded.required("started-at")), decoded.required("reason"));
    }

    /**
     * An instant as "epoch seconds.nanoseconds" (nine digits): exact, and made without the JDK's date
     * formatter, whose classes took 4-6 ms of an idle target's first answer to a capture.
     */
    static String text(Instant t) {
        String nanos = Integer.toString(t.getNano());
        return t.getEpochSecond() + "." + "000000000".substring(nanos.length()) + nanos;
    }

    static Instant instant(String text) {
        int dot = text.indexOf('.');
        if (dot < 1 || text.length() - dot - 1 != 9 || !asciiDigits(text, text.charAt(0) == '-' ? 1 : 0, dot)
                || !asciiDigits(text, dot + 1, text.length())) {
            throw new IllegalArgumentException("not an instant: '" + text + "'");
        }
        try {
            return Instant.ofEpochSecond(Long.parseLong(text.substring(0, dot)), Integer.parseInt(text.substring(dot + 1)));
        } catch (NumberFormatException | DateTimeException e) {
            throw new IllegalArgumentException("not an instant: '" + text + "'");
        }
    }

    /** Only 0-9: Java's parsers also take other scripts' digits. */
    private static boolean asciiDigits(String s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
