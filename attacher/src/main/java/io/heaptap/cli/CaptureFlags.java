package io.heaptap.cli;

import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.session.CaptureOptions;

import java.util.List;

/**
 * The options of a capture, shared by {@code capture} and {@code start}. Ranges and defaults in the
 * help come from CaptureOptions' constants, which also check the values.
 */
record CaptureFlags(String duration, String interval, String rate, int depth, int maxStacks, boolean noLive, int liveBudget,
                    String liveBytes) {
    static final List<Flag> FLAGS = List.of(
            Flag.value("--duration", "<duration>",
                    "Time box, e.g. 30s, 2m, 1h (max 24h). Sampling stops in the target when it ends. Default: 30s."),
            Flag.value("--interval", "<size>",
                    "A fixed mean of bytes allocated between samples, per thread, e.g. 512k, 64k, 1m."
                            + " Default: none; the interval follows --rate."),
            Flag.value("--rate", "<samples/s>",
                    "Samples per second to keep near by moving the interval (32k-64m) with the"
                            + " allocation rate; estimates stay unbiased. " + CaptureOptions.MIN_SAMPLE_RATE + "-"
                            + CaptureOptions.MAX_SAMPLE_RATE + ", kept whatever the samples cost. Default: "
                            + CaptureOptions.DEFAULT_SAMPLE_RATE + ", fewer (not below " + CaptureOptions.costBoundMinRate() + ") where they would cost over "
                            + CaptureOptions.costBound() + " (deep stacks). Not with --interval."),
            Flag.value("--depth", "<frames>",
                    "Stack frames kept per sample, 1-" + CaptureOptions.MAX_DEPTH + ". Default: " + CaptureOptions.DEFAULT_DEPTH + "."),
            Flag.value("--max-stacks", "<n>",
                    "Distinct stacks kept; samples beyond are counted without a stack. Default: " + CaptureOptions.DEFAULT_MAX_STACKS + "."),
            Flag.toggle("--no-live", "Do not track sampled objects (no live set, age or GCs survived)."),
            Flag.value("--live-budget", "<n>",
                    "Maximum tracked objects, 1-" + CaptureOptions.MAX_LIVE_BUDGET + "; a full table is thinned (estimates stay"
                            + " unbiased). Default: " + CaptureOptions.DEFAULT_LIVE_BUDGET + "."),
            Flag.value("--live-bytes", "<share|size>",
                    "What tracked objects not yet proven live may hold of the heap, e.g. 5% or 64m: until a whole-heap"
                            + " marking, heaptap's weak reference may be all that keeps them. Beyond it the tracked set is thinned"
                            + " by size (estimates stay unbiased). At most 25% of the heap. Default: 1.5% of the heap on"
                            + " generational ZGC and Shenandoah, 5% elsewhere."));

    static CaptureFlags from(Arguments args) {
        return new CaptureFlags(args.value("--duration", "30s"), args.value("--interval"), args.value("--rate"),
                args.intValue("--depth", CaptureOptions.DEFAULT_DEPTH), args.intValue("--max-stacks", CaptureOptions.DEFAULT_MAX_STACKS),
                args.has("--no-live"), args.intValue("--live-budget", CaptureOptions.DEFAULT_LIVE_BUDGET), args.value("--live-bytes"));
    }

    CaptureOptions options() {
        if (interval != null && rate != null) {
            throw new IllegalArgumentException("give --interval (a fixed interval) or --rate (a sample-rate target), not both");
        }
        return CaptureOptions.parse(duration, rate != null ? rate.strip() + "/s" : interval, depth, maxStacks, !noLive, liveBudget)
                .withLiveBytes(CaptureOptions.parseLiveBytes(liveBytes));
    }
}
