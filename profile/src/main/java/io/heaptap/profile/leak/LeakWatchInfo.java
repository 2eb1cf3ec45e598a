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
 * @param gcs           collections of any kind between the first and last snapshot (a count)
 * @param markings      whole-heap markings between the start and the last snapshot (a count): the proof behind verdicts
 * @param lastMarkingAt when the last whole-heap marking completed, null if none since tracking began
 * @param markingLimitation what this collector's marking clock cannot see, empty when nothing
 * @param gcForced      a full collection was forced before every snapshot ({@code --gc})
 * @param pausesMillis  the forced collections' pauses, one per snapshot (the last {@value #MAX_PAUSES} kept)
 * @param maxPauseMillis the longest forced pause of the watch
 * @param sitesLeftOut  sites not followed because the site limit was reached (a count)
 * @param history       what the watch's history keeps on the target's heap, and its bound
 * @param warnings      anything the reader should know (capture could not be re-armed, ...)
 */
public record LeakWatchInfo(long pid, Instant startedAt, long durationMillis, long everyMillis, long elapsedMillis,
                            long intervalBytes, String state, String endReason, int snapshots, long gcs, long markings,
                            Instant lastMarkingAt, String markingLimitation, boolean gcForced, List<Long> pausesMillis,
                            long maxPauseMillis, long sitesLeftOut, HistoryFootprint history, List<String> warnings) {
    public static final int MAX_PAUSES = 120;

    public LeakWatchInfo {
        warnings = List.copyOf(warnings);
        pausesMillis = List.copyOf(pausesMillis);
    }
}
