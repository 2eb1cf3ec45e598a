package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import java.time.Instant;
import java.util.Locale;

/**
 * Continuous sampling, for scrapers (Pyroscope/Alloy, Parca): one sampler that runs until stopped,
 * under a sample-rate target, whose counters are never reset, so {@code /debug/pprof/allocs} is
 * cumulative since {@code since}. An on-demand capture meanwhile is a window over it.
 *
 * @param since          when it began
 * @param startNanos     {@link System#nanoTime()} then
 * @param service        the name scrapes are labelled with (the main class or jar, or what the user gave)
 * @param options        its settings; the duration is nominal (the native deadline is decades away)
 * @param governor       moves its interval with the allocation rate
 * @param markingsAtStart the marking clock's completed markings when it began
 * @param forcedAtStart   the marking clock's forced collections when it began
 */
public record ContinuousRun(Instant since, long startNanos, String service, CaptureOptions options, SampleRateGovernor governor,
                            long markingsAtStart, long forcedAtStart) {
    /** What a scrape may cost per stack in the table (decoded, then encoded as pprof; DumpCost at depth 64, rounded up). */
    static final long SCRAPE_BYTES_PER_STACK = 4 * 1024;
    /** What a scrape costs besides the stacks: the live table's entries and the decoder's buffers. */
    static final long SCRAPE_FIXED_BYTES = 8L << 20;
    static final int MIN_STACKS = 1024;

    /**
     * The stack budget of continuous sampling: as many stacks as a scrape can decode and encode
     * within heaptap's heap budget when the table is full (a full table is where days of sampling
     * end up), between {@value #MIN_STACKS} and the capture default. Samples beyond it are counted
     * under "[other stacks]".
     */
    static int maxStacksFor(long heapBudgetBytes) {
        long stacks = (heapBudgetBytes - SCRAPE_FIXED_BYTES) / SCRAPE_BYTES_PER_STACK;
        return (int) Math.max(MIN_STACKS, Math.min(CaptureOptions.DEFAULT_MAX_STACKS, stacks));
    }

    /** One line for status: since when, the service, the interval now, the stack budget. */
    public String describe() {
        return String.format(Locale.ROOT, "since %s, service %s, interval now %d bytes (target %d samples/s), stack budget %d",
                since, service, governor.interval(), options.sampleRate(), options.maxStacks());
    }
}
