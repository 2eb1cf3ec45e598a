package io.heaptap.session;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.census.CensusHistory;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassHistogram;
import io.heaptap.profile.census.HeapReading;
import io.heaptap.profile.census.HeapSlack;
import io.heaptap.profile.census.HeldByTracking;
import io.heaptap.profile.census.TimeToOom;
import io.heaptap.profile.leak.LeakFormat;
import io.heaptap.profile.leak.LeakHistory;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.profile.leak.LeakWatchInfo;

import java.util.Locale;

/**
 * A leak watch's snapshot, rehearsed once on data that is thrown away, before the watch's first forced collection.
 *
 * <p>Why: a watch's first snapshots run code heaptap has not run in this JVM yet, and the JVM keeps what that code
 * loads for its life: some 150 classes, their lambdas' hidden classes and method handles, their strings (measured
 * on generational ZGC, JDK 25: 155 classes in a watch's first snapshot, after its census, and 20 in the second). Loaded after the
 * first census, all of it reads as the application's growth: at the top of the class growth ({@code java.lang.Class},
 * {@code String}, {@code Object[]}, 50-125 KB/min over 2-minute watches of #36's scenario) and in the slope to OOM,
 * which then ends early. Rehearsed first, it is in every census alike.
 *
 * <p>The rehearsal decodes the capture as a snapshot does (it has just started: little to decode), adds it to a
 * scratch history twice, parses a small made-up class histogram into {@link TimeToOom#MIN_POINTS} censuses, builds
 * a report from them, and renders it as text and JSON. It runs on heaptap's timer thread, and what it builds is garbage at once.
 */
final class SnapshotRehearsal {
    private SnapshotRehearsal() {
    }

    /** Rehearses a snapshot of a watch shown as {@code info}; with {@code census}, its census and heap section too. */
    static void run(Controller controller, LeakWatchInfo info, boolean census, HeapReading reading, HeapSlack slack) {
        AllocationProfile profile = controller.profile(LiveFilter.NONE, false);
        LeakHistory history = new LeakHistory(1, LeakHistory.MIN_POINTS_PER_SITE);
        history.add(1, profile);
        history.add(2, profile);
        CensusHistory censuses = null;
        if (census) {
            censuses = new CensusHistory(reading, slack);
            for (int i = 1; i <= TimeToOom.MIN_POINTS; i++) {
                long bytes = 1L << 20;
                censuses.add(ClassHistogram.parse(histogram(i), ClassCensus.DEFAULT_TOP, i * 1000L, bytes * (i + 1), bytes << 10, 0),
                        HeldByTracking.of(profile), i % 2 == 1);
            }
        }
        LeakReport report = LeakReport.of(info, history.sites(), censuses);
        // A client reading the watch as it goes has the report rendered in the target, in its format.
        LeakFormat.TEXT.render(report);
        LeakFormat.JSON.render(report);
    }

    /** A class histogram as the JVM writes it, whose {@code byte[]} grows by a MiB a census. */
    private static String histogram(int i) {
        long bytes = (long) i << 20;
        return String.format(Locale.ROOT, " num     #instances         #bytes  class name (module)%n"
                + "-------------------------------------------------------%n"
                + "   1:          %d        %d  [B (java.base)%n"
                + "   2:          16           1024  java.lang.String (java.base)%n"
                + "Total          %d        %d%n", i * 1024, bytes, i * 1024 + 16, bytes + 1024);
    }
}
