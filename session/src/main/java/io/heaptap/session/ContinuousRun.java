package io.heaptap.session;

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

    /** One line for status: since when, the service, the interval now. */
    public String describe() {
        return String.format(Locale.ROOT, "since %s, service %s, interval now %d bytes (target %,d samples/s)", since, service,
                governor.interval(), options.sampleRate());
    }
}
