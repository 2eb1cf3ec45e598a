package io.heaptap.agent;

import io.heaptap.session.CaptureOptions;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

/**
 * A capture started through the Attach API's agent arguments ({@code VirtualMachine.loadAgent(jar, args)}),
 * so sampling begins without waiting for the target's JMX agent. Only a caller the Attach API admits
 * (the target's user, or root) can load an agent, so this door is exactly as narrow as the Attach API.
 * The target answers in the system property {@link AgentReply#property(String) named by} {@code reply}.
 *
 * @param options           what to capture, checked again in the target by {@link CaptureOptions}'s constructor
 * @param client            who started it, as status shows it
 * @param reply             names the reply property: letters, digits, '.', '-' (the CLI uses its pid and a clock)
 * @param reportFirstSample also publish when the first sample arrives ({@code start --verbose})
 */
public record CaptureRequest(CaptureOptions options, String client, String reply, boolean reportFirstSample) {
    public static final String COMMAND = "capture";
    private static final List<String> NAMES = List.of("reply", "duration-ms", "interval", "sample-rate", "depth", "max-stacks",
            "live", "live-budget", "cost-bounded", "client", "first-sample", "live-bytes");

    public CaptureRequest {
        checkReply(reply);
    }

    public String encode() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("reply", reply);
        values.put("duration-ms", Long.toString(options.duration().toMillis()));
        values.put("interval", Long.toString(options.intervalBytes()));
        values.put("sample-rate", Integer.toString(options.sampleRate()));
        values.put("depth", Integer.toString(options.stackDepth()));
        values.put("max-stacks", Integer.toString(options.maxStacks()));
        values.put("live", Boolean.toString(options.live()));
        values.put("live-budget", Integer.toString(options.liveBudget()));
        values.put("cost-bounded", Boolean.toString(options.costBounded()));
        values.put("live-bytes", Double.toString(options.liveBytes()));
        values.put("client", client);
        values.put("first-sample", Boolean.toString(reportFirstSample));
        return AgentArgumentCodec.encode(COMMAND, values);
    }

    /** The reply id alone, so that a request whose options are bad can still be answered. */
    static String replyOf(AgentArgumentCodec.Decoded decoded) {
        return checkReply(decoded.required("reply"));
    }

    static CaptureRequest decode(AgentArgumentCodec.Decoded decoded) {
        decoded.onlyNames(NAMES);
        CaptureOptions options = new CaptureOptions(Duration.ofMillis(decoded.number("duration-ms")), decoded.number("interval"),
                decoded.count("depth"), decoded.count("max-stacks"), decoded.flag("live"), decoded.count("live-budget"),
                decoded.count("sample-rate"), decoded.flag("cost-bounded")).withLiveBytes(liveBytes(decoded.values().get("live-bytes")));
        return new CaptureRequest(options, decoded.required("client"), decoded.required("reply"), decoded.flag("first-sample"));
    }

    /** The byte bound asked for (CaptureOptions.liveBytes); absent (an older client): 0, the collector's default. */
    private static double liveBytes(String text) {
        if (text == null) {
            return 0;
        }
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("live-bytes must be a number, not '" + AgentArgumentCodec.escape(text) + "'");
        }
    }

    private static String checkReply(String reply) {
        if (reply == null || !reply.matches("[A-Za-z0-9.-]{1,64}")) {
            throw new IllegalArgumentException("reply must be 1-64 letters, digits, '.' or '-', not '" + reply + "'");
        }
        return reply;
    }
}
