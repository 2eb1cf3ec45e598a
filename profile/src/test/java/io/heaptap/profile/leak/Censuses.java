package io.heaptap.profile.leak;

import io.heaptap.profile.census.CensusHistory;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassCount;
import io.heaptap.profile.census.HeapReading;
import io.heaptap.profile.census.HeapSlack;
import io.heaptap.profile.census.HeldByTracking;

import java.util.List;

/** Class censuses for reports in tests: a heap of 1 GiB held before the watch, and byte[] growing by {@code bytesPerSecond}. */
final class Censuses {
    static final long MB = 1L << 20;

    private Censuses() {
    }

    static CensusHistory growing(int censuses, double bytesPerSecond) {
        return growing(censuses, bytesPerSecond, 10 * MB);
    }

    /** {@code notLive}: what the collector's figure holds beyond the census's live objects (ZGC's uncompacted pages). */
    static CensusHistory growing(int censuses, double bytesPerSecond, long notLive) {
        return growing(censuses, bytesPerSecond, notLive, HeapReading.COLLECTOR);
    }

    /** {@code reading}: which the time to OOM follows, the collector's figure or the census's live bytes. */
    static CensusHistory growing(int censuses, double bytesPerSecond, long notLive, HeapReading reading) {
        CensusHistory h = new CensusHistory(reading, reading == HeapReading.COLLECTOR ? new HeapSlack(0.05, 0, 0) : HeapSlack.NONE);  // HotSpot's MarkSweepDeadRatio
        for (int i = 0; i < censuses; i++) {
            long at = (i + 1) * Synthetic.EVERY;
            long grown = Math.round(bytesPerSecond * at / 1000.0);
            long heap = 1_020 * MB + notLive + grown;
            h.add(new ClassCensus(at, heap, 4_096 * MB, 300, List.of(new ClassCount("byte[]", 1_000_000 + grown / 1024, 900 * MB + grown),
                    new ClassCount("java.lang.String", 2_000_000, 64 * MB), new ClassCount("Order", 1_000, 40 * MB)),
                    new ClassCount("500 other classes", 10_000, 16 * MB), 500, 3_011_000 + grown / 1024, 1_020 * MB + grown),
                    HeldByTracking.NONE, false);
        }
        return h;
    }
}
