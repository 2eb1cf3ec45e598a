package io.heaptap.session;

import java.util.List;

/**
 * Finds G1's concurrent-cycle pauses (Remark and Cleanup) on JDK 11-19, where no GC MXBean counts them
 * (JDK 20 added {@code G1 Concurrent GC}), and feeds them to the {@link MarkingClock}. The JVM posts a
 * JVMTI GarbageCollectionFinish event for every pause, those two included, while the {@code G1 Young
 * Generation} and {@code G1 Old Generation} beans count the young and full ones: between two readings,
 * the growth of the events' count minus the growth of the beans' counts is the number of concurrent
 * pauses in between, each of which ended after the earlier reading began.
 *
 * <p>Readings are {@link GcClockReading}s, taken by {@link LiveTracker#readGcClocks} for this and for the
 * agent's GC count at once. Where the events' count falls short
 * (events off between captures, a JVMTI environment without them), the difference is smaller, never
 * larger: fewer pauses are found, which proves less, never more. A negative difference finds none.
 */
final class G1ConcurrentPauses {
    private final MarkingClock clock;
    private boolean read;
    private long lastCollections;
    private long lastEvents;
    private long lastNanos;

    G1ConcurrentPauses(MarkingClock clock) {
        this.clock = clock;
    }

    /** Whether a JVM with these GC beans needs this: G1 without the {@code G1 Concurrent GC} bean. */
    static boolean needed(List<String> beanNames) {
        return beanNames.contains("G1 Old Generation") && !beanNames.contains("G1 Concurrent GC");
    }

    /**
     * Tells the clock of the concurrent pauses between the last reading and this one. Readings are taken on
     * several threads (heaptap-live, a GC bean's listener, a dump's) and can arrive out of order: one whose
     * counts are below the last one's is older and is ignored (the two counts never go back), or the pauses
     * between the two would be counted again at the next reading.
     */
    synchronized void update(GcClockReading reading) {
        if (read && (reading.collections() < lastCollections || reading.finishes() < lastEvents)) {
            return;
        }
        if (read) {
            long pauses = (reading.finishes() - lastEvents) - (reading.collections() - lastCollections);
            if (pauses > 0) {
                clock.onG1ConcurrentPauses(pauses, lastNanos);
            }
        }
        read = true;
        lastCollections = reading.collections();
        lastEvents = reading.finishes();
        lastNanos = reading.nanos();
    }
}
