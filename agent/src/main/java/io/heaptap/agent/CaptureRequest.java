package io.heaptap.agent;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.CaptureKeys;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

/**
 * A capture started through the Attach API's agent arguments ({@code VirtualMachine.loadAgent(jar, args)}),
 * so sampling begins without waiting for the target's JMX agent. Only a caller the Attach API admits
 * (the target's user, or root) can load an agent, so this door is exactly as narrow as the Attach API.
 * The target answers in the system property {@link AgentReply#property(String) named by} {@code reply}.
 *
 * @param options           what to capture, as {@link CaptureKeys} text, read in the target by the same parser
 * @param client            who started it, as status shows it
 * @param reply             names the reply property: letters, digits, '.', '-' (the CLI uses its pid and a clock)
 * @param reportFirstSample also publish when the first sample arrives ({@code start --verbose})
 */
public record CaptureRequest(CaptureOptions options, String client, String reply, boolean reportFirstSample) {
    public static final String COMMAND = "capture";
    /** The request's own names; the options' names are {@link CaptureKeys}'. */
    private static final List<String> OWN = List.of("reply", "client", "first-sample");

    public CaptureRequest {
        checkReply(reply);
    }

    public String encode() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("reply", reply);
        values.putAll(CaptureKeys.text(options));
        values.put("client", client);
        values.put("first-sample", Boolean.toString(reportFirstSample));
        return AgentArgumentCodec.encode(COMMAND, values);
    }

    /** The reply id alone, so that a request whose options are bad can still be answered. */
    static String replyOf(AgentArgumentCodec.Decoded decoded) {
        return checkReply(decoded.required("reply"));
    }

    public static CaptureRequest decode(AgentArgumentCodec.Decoded decoded) {
        List<String> names = new ArrayList<>(OWN);
        names.addAll(CaptureKeys.acceptedNames());
        decoded.onlyNames(names);
        Map<String, String> given = new LinkedHashMap<>(decoded.values());
        given.keySet().removeAll(OWN);
        return new CaptureRequest(CaptureKeys.parse(given), decoded.required("client"), decoded.required("reply"),
                decoded.flag("first-sample"));
    }

    private static String checkReply(String reply) {
        if (reply == null || !reply.matches("[A-Za-z0-9.-]{1,64}")) {
            throw new IllegalArgumentException("reply must be 1-64 letters, digits, '.' or '-', not '" + reply + "'");
        }
        return reply;
    }
}
