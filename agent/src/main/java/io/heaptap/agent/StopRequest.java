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
        // ASCII digits only: Java's parsers also take other scripts' digits.
        if (!text.matches("-?[0-9]{1,19}\\.[0-9]{9}")) {
            throw new IllegalArgumentException("not an instant: '" + text + "'");
        }
        int dot = text.indexOf('.');
        try {
            return Instant.ofEpochSecond(Long.parseLong(text.substring(0, dot)), Integer.parseInt(text.substring(dot + 1)));
        } catch (NumberFormatException | DateTimeException e) {
            throw new IllegalArgumentException("not an instant: '" + text + "'");
        }
    }
}
