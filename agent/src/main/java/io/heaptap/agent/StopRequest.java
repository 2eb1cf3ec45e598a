package io.heaptap.agent;

import java.time.Instant;
import java.time.format.DateTimeParseException;
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
        values.put("started-at", startedAt.toString());
        values.put("reason", reason);
        return AgentArgumentCodec.encode(COMMAND, values);
    }

    static StopRequest decode(AgentArgumentCodec.Decoded decoded) {
        decoded.onlyNames(NAMES);
        return new StopRequest(instant(decoded.required("started-at")), decoded.required("reason"));
    }

    static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not an instant: '" + text + "'");
        }
    }
}
