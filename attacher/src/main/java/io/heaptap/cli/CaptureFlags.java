package io.heaptap.cli;

import io.heaptap.session.CaptureOptions;

import picocli.CommandLine.Option;

/**
 * The options of a capture, shared by {@code capture} and {@code start}. Ranges and defaults in the
 * help come from CaptureOptions' constants, which also check the values.
 */
final class CaptureFlags {
    @Option(names = "--duration", defaultValue = "30s", paramLabel = "<duration>",
            description = "Time box, e.g. 30s, 2m, 1h (max 24h). Sampling stops in the target when it ends. Default: ${DEFAULT-VALUE}.")
    String duration;

    @Option(names = "--interval", paramLabel = "<size>",
            description = "A fixed mean of bytes allocated between samples, per thread, e.g. 512k, 64k, 1m."
                    + " Default: none; the interval follows --rate.")
    String interval;

    @Option(names = "--rate", paramLabel = "<samples/s>",
            description = "Samples per second to keep near by moving the interval (32k-64m) with the"
                    + " allocation rate; estimates stay unbiased. " + CaptureOptions.MIN_SAMPLE_RATE + "-" + CaptureOptions.MAX_SAMPLE_RATE
                    + ". Default: " + CaptureOptions.DEFAULT_SAMPLE_RATE + ". Not with --interval.")
    String rate;

    @Option(names = "--depth", defaultValue = "" + CaptureOptions.DEFAULT_DEPTH, paramLabel = "<frames>",
            description = "Stack frames kept per sample, 1-" + CaptureOptions.MAX_DEPTH + ". Default: ${DEFAULT-VALUE}.")
    int depth;

    @Option(names = "--max-stacks", defaultValue = "" + CaptureOptions.DEFAULT_MAX_STACKS, paramLabel = "<n>",
            description = "Distinct stacks kept; samples beyond are counted without a stack. Default: ${DEFAULT-VALUE}.")
    int maxStacks;

    @Option(names = "--no-live", description = "Do not track sampled objects (no live set, age or GCs survived).")
    boolean noLive;

    @Option(names = "--live-budget", defaultValue = "" + CaptureOptions.DEFAULT_LIVE_BUDGET, paramLabel = "<n>",
            description = "Maximum tracked objects, 1-" + CaptureOptions.MAX_LIVE_BUDGET + "; a full table is thinned (estimates stay"
                    + " unbiased). Default: ${DEFAULT-VALUE}.")
    int liveBudget;

    CaptureOptions options() {
        if (interval != null && rate != null) {
            throw new IllegalArgumentException("give --interval (a fixed interval) or --rate (a sample-rate target), not both");
        }
        return CaptureOptions.parse(duration, rate != null ? rate.strip() + "/s" : interval, depth, maxStacks, !noLive, liveBudget);
    }
}
