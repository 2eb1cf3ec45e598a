package io.heaptap.profile.leak;

import java.time.Instant;
import java.util.List;

/**
 * How a leak watch ran.
 *
 * @param pid           the watched JVM
 * @param startedAt     when the watch started
 * @param durationMillis the time asked for
 * @param everyMillis   time between snapshots
 * @param elapsedMillis time since the start, at the last snapshot
 * @param intervalBytes the sampling interval of its captures
 * @param state         {@code watching} or {@code ended}
 * @param endReason     why it ended ("duration reached", "stopped", ...); empty while watching
 * @param snapshots     snapshots taken (a count)
 * @param gcs           collections between the first and last snapshot (a count)
 * @param sitesLeftOut  sites not followed because the site limit was reached (a count)
 * @param warnings      anything the reader should know (capture could not be re-armed, ...)
 */
public record LeakWatchInfo(long pid, Instant startedAt, long durationMillis, long everyMillis, long elapsedMillis,
                            long intervalBytes, String state, String endReason, int snapshots, long gcs, long sitesLeftOut,
                            List<String> warnings) {
    public LeakWatchInfo {
        warnings = List.copyOf(warnings);
    }
}
