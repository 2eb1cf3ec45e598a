package io.heaptap.wire.options;

import io.heaptap.profile.HumanUnits;
import io.heaptap.wire.options.CaptureOptions;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of a capture, each declared once ({@link OptionKey}), and the one parser every door uses:
 * the CLI's flags, HTTP's query or body parameters, the MBean's operation parameters and the CLI's agent
 * arguments all come here as name to text. A missing, blank or {@code default} value is the default, so the
 * default request (nothing given) is the cost-bounded default sampling for 30 s through every door.
 */
public final class CaptureKeys {
    public static final OptionKey DURATION = new OptionKey("duration", "<duration>", "30s",
            "Time box, e.g. 30s, 2m, 1h (max 24h). Sampling stops in the target when it ends.", List.of());
    public static final OptionKey INTERVAL = new OptionKey("interval", "<size>", "none; the interval follows rate",
            "A fixed mean of bytes allocated between samples, per thread, e.g. 512k, 64k, 1m ("
                    + HumanUnits.formatBytes(CaptureOptions.MIN_INTERVAL) + " to " + HumanUnits.formatBytes(CaptureOptions.MAX_INTERVAL)
                    + "). Not with rate.", List.of());
    public static final OptionKey RATE = new OptionKey("rate", "<samples/s>",
            CaptureOptions.DEFAULT_SAMPLE_RATE + " samples/s, fewer (not below " + CaptureOptions.costBoundMinRate()
                    + ") where they would cost over " + CaptureOptions.costBound() + " (deep stacks)",
            "Samples per second to keep near by moving the interval with the allocation rate; estimates stay unbiased. "
                    + CaptureOptions.MIN_SAMPLE_RATE + "-" + CaptureOptions.MAX_SAMPLE_RATE
                    + ", kept whatever the samples cost. Not with interval.", List.of());
    public static final OptionKey DEPTH = new OptionKey("depth", "<frames>", Integer.toString(CaptureOptions.DEFAULT_DEPTH),
            "Stack frames kept per sample, 1-" + CaptureOptions.MAX_DEPTH + ".", List.of("stackDepth"));
    public static final OptionKey MAX_STACKS = new OptionKey("max-stacks", "<n>", Integer.toString(CaptureOptions.DEFAULT_MAX_STACKS),
            "Distinct stacks kept, 1-" + CaptureOptions.MAX_MAX_STACKS + "; samples beyond are counted without a stack.",
            List.of("maxStacks"));
    public static final OptionKey LIVE = new OptionKey("live", "<true|false>", "true",
            "Track sampled objects through weak references (live set, age, GCs survived).", List.of());
    public static final OptionKey LIVE_BUDGET = new OptionKey("live-budget", "<n>", Integer.toString(CaptureOptions.DEFAULT_LIVE_BUDGET),
            "Maximum tracked objects, 1-" + CaptureOptions.MAX_LIVE_BUDGET + "; a full table is thinned (estimates stay unbiased).",
            List.of("liveBudget"));
    public static final OptionKey LIVE_BYTES = new OptionKey("live-bytes", "<share|size>",
            "1.5% of the heap on generational ZGC and Shenandoah, 5% elsewhere",
            "What tracked objects not yet proven live may hold of the heap, e.g. 5% or 64m: until a whole-heap marking,"
                    + " heaptap's weak reference may be all that keeps them. Beyond it the tracked set is thinned by size"
                    + " (estimates stay unbiased). At most 25% of the heap.", List.of("liveBytes"));
    public static final List<OptionKey> ALL = List.of(DURATION, INTERVAL, RATE, DEPTH, MAX_STACKS, LIVE, LIVE_BUDGET, LIVE_BYTES);

    private CaptureKeys() {
    }

    /** Every name a door accepts: the canonical names, then the older spellings. */
    public static List<String> acceptedNames() {
        return GivenOptions.acceptedNames(ALL);
    }

    /**
     * The options from text by name (canonical or an older spelling). Absent, blank or {@code default}: the
     * default. Both interval and rate: refused. Neither: the default sampling, bounded by its cost.
     */
    public static CaptureOptions parse(Map<String, String> given) {
        GivenOptions text = GivenOptions.resolve("capture option", ALL, given);
        String interval = text.raw(INTERVAL);
        String rate = text.raw(RATE);
        if (!OptionKey.isDefault(interval) && interval.strip().endsWith("/s")) {
            // The MBean's interval once took a rate as 5000/s; still read so, unless a rate is given too.
            if (!OptionKey.isDefault(rate)) {
                throw new BadOptionException(RATE.name(), "give interval (a fixed interval) or rate (a sample-rate target), not both");
            }
            rate = interval;
            interval = null;
        }
        if (!OptionKey.isDefault(interval) && !OptionKey.isDefault(rate)) {
            throw new BadOptionException(RATE.name(), "give interval (a fixed interval) or rate (a sample-rate target), not both");
        }
        Duration duration = text.read(DURATION, CaptureOptions.DEFAULT_DURATION, CaptureOptions::parseDuration);
        int depth = text.count(DEPTH, "depth", CaptureOptions.DEFAULT_DEPTH, CaptureOptions.MAX_DEPTH);
        int maxStacks = text.count(MAX_STACKS, "max stacks", CaptureOptions.DEFAULT_MAX_STACKS, CaptureOptions.MAX_MAX_STACKS);
        boolean live = text.flag(LIVE, true);
        // Without live tracking no budget is used, and CaptureOptions leaves it unchecked.
        int liveBudget = text.count(LIVE_BUDGET, "live budget", CaptureOptions.DEFAULT_LIVE_BUDGET,
                live ? CaptureOptions.MAX_LIVE_BUDGET : -1);
        double liveBytes = GivenOptions.named(LIVE_BYTES, () -> CaptureOptions.parseLiveBytes(text.raw(LIVE_BYTES)));
        CaptureOptions options;
        if (!OptionKey.isDefault(interval)) {
            String fixed = interval.strip();
            long bytes = GivenOptions.named(INTERVAL, () -> CaptureOptions.parseInterval(fixed));
            options = new CaptureOptions(duration, bytes, depth, maxStacks, live, liveBudget, 0);
        } else if (!OptionKey.isDefault(rate)) {
            String r = rate.strip();
            int perSecond = GivenOptions.named(RATE, () -> CaptureOptions.parseSampleRate(r.endsWith("/s") ? r.substring(0, r.length() - 2) : r));
            options = new CaptureOptions(duration, CaptureOptions.DEFAULT_INTERVAL, depth, maxStacks, live, liveBudget, perSecond);
        } else {
            options = CaptureOptions.defaultSampling(duration, depth, maxStacks, live, liveBudget);
        }
        return options.withLiveBytes(liveBytes);
    }

    /**
     * The options as text by canonical name, which {@link #parse} reads back to equal options: how the CLI
     * hands a capture to the target in the agent arguments. The default sampling gives neither interval nor rate;
     * a sample-rate target starts at the default interval, as every door starts one.
     */
    public static Map<String, String> text(CaptureOptions o) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(DURATION.name(), o.duration().toMillis() + "ms");
        if (!o.costBounded()) {
            out.put(o.adaptive() ? RATE.name() : INTERVAL.name(), Long.toString(o.adaptive() ? o.sampleRate() : o.intervalBytes()));
        }
        out.put(DEPTH.name(), Integer.toString(o.stackDepth()));
        out.put(MAX_STACKS.name(), Integer.toString(o.maxStacks()));
        out.put(LIVE.name(), Boolean.toString(o.live()));
        out.put(LIVE_BUDGET.name(), Integer.toString(o.liveBudget()));
        if (o.liveBytes() > 0) {
            // A share as its exact decimal percent, bytes as a whole number: both read back to the same double.
            out.put(LIVE_BYTES.name(), o.liveBytes() < 1 ? BigDecimal.valueOf(o.liveBytes()).movePointRight(2).toPlainString() + "%"
                    : Long.toString((long) o.liveBytes()));
        }
        return out;
    }
}
