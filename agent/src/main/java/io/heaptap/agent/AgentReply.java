package io.heaptap.agent;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

/**
 * The target's answer to a {@link CaptureRequest}, published as the system property
 * {@link #property(String)} where the CLI reads it over the same Attach API connection (an agent
 * cannot return a value through {@code loadAgent}, and an exception escaping it is printed on the
 * application's stderr). Encoded with {@link AgentArgumentCodec}, so a message survives any text.
 *
 * @param outcome      what happened
 * @param message      why it was refused or failed; empty when started
 * @param startedNanos {@link System#nanoTime()} in the target when sampling had begun (0 unless
 *                     started). On Linux every process reads the same monotonic clock, so the CLI
 *                     can place it among its own phases.
 * @param startedAt    the capture's start as its status names it (null unless started): a
 *                     {@link StopRequest} stops this capture and no later one
 * @param moments      when the target reached the steps before sampling began ({@link Moments#NONE} unless started)
 */
public record AgentReply(Outcome outcome, String message, long startedNanos, Instant startedAt, Moments moments) {
    /** The prefix of every reply property; the target keeps only the last {@link #KEPT} of them. */
    public static final String PREFIX = "heaptap.agent.reply.";
    public static final int KEPT = 16;
    private static final List<String> NAMES = List.of("message", "at", "started-at", "entered", "parsed", "ready");

    /**
     * {@link System#nanoTime()} in the target at the steps of a start before sampling began, for
     * {@code start --verbose}: three clock reads, no work of their own. 0 where not known.
     *
     * @param entered heaptap's agentmain began (heaptap.jar, the launcher and the private loader are loaded)
     * @param parsed  the request and its options are parsed
     * @param ready   the controller is made (native agent bound, GC beans, heap budget, timer)
     */
    public record Moments(long entered, long parsed, long ready) {
        public static final Moments NONE = new Moments(0, 0, 0);
    }

    public enum Outcome {
        /** Sampling runs. */
        STARTED,
        /** The session refused: a capture runs already, no native agent, another profiler has the capability. */
        REFUSED,
        /** The options were refused (only a client other than heaptap's own CLI gets here). */
        BAD_OPTIONS,
        /** Anything else: a bug. */
        FAILED;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public static AgentReply started(long startedNanos, Instant startedAt) {
        return started(startedNanos, startedAt, Moments.NONE);
    }

    public static AgentReply started(long startedNanos, Instant startedAt, Moments moments) {
        return new AgentReply(Outcome.STARTED, "", startedNanos, startedAt, moments);
    }

    public static AgentReply failed(Outcome outcome, String message) {
        return new AgentReply(outcome, message == null ? "" : message, 0, null, Moments.NONE);
    }

    /** Where the answer to request {@code reply} is published. */
    public static String property(String reply) {
        return PREFIX + reply;
    }

    /** Where the {@link System#nanoTime()} of the first sample is published, when asked for ("none" if none came). */
    public static String firstSampleProperty(String reply) {
        return PREFIX + reply + ".first-sample";
    }

    public String encode() {
        Map<String, String> values = new LinkedHashMap<>();
        if (outcome == Outcome.STARTED) {
            values.put("at", Long.toString(startedNanos));
            values.put("started-at", StopRequest.text(startedAt));
            if (!moments.equals(Moments.NONE)) {
                values.put("entered", Long.toString(moments.entered()));
                values.put("parsed", Long.toString(moments.parsed()));
                values.put("ready", Long.toString(moments.ready()));
            }
        } else {
            values.put("message", message);
        }
        return AgentArgumentCodec.encode(outcome.word(), values);
    }

    public static AgentReply decode(String text) {
        AgentArgumentCodec.Decoded d = AgentArgumentCodec.decode(text).onlyNames(NAMES);
        for (Outcome o : Outcome.values()) {
            if (o.word().equals(d.command())) {
                return o == Outcome.STARTED ? started(d.number("at"), StopRequest.instant(d.required("started-at")), moments(d))
                        : failed(o, d.required("message"));
            }
        }
        throw new IllegalArgumentException("not a heaptap agent reply: '" + text + "'");
    }

    /** The moments a reply carries; none when it carries none (all three or none are sent). */
    private static Moments moments(AgentArgumentCodec.Decoded d) {
        return d.values().containsKey("entered") ? new Moments(d.number("entered"), d.number("parsed"), d.number("ready")) : Moments.NONE;
    }
}
