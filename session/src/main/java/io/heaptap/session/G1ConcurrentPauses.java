package io.heaptap.session;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * Finds G1's concurrent-cycle pauses (Remark and Cleanup) on JDK 11-19, where no GC MXBean counts them
 * (JDK 20 added {@code G1 Concurrent GC}), and feeds them to the {@link MarkingClock}. The JVM posts a
 * JVMTI GarbageCollectionFinish event for every pause, those two included, while the {@code G1 Young
 * Generation} and {@code G1 Old Generation} beans count the young and full ones: between two readings,
 * the growth of the events' count minus the growth of the beans' counts is the number of concurrent
 * pauses in between, each of which ended after the earlier reading began.
 *
 * <p>Readings are {@link GcClockReading}s, which agree or are skipped. Where the events' count falls short
 * (events off between captures, a JVMTI environment without them), the difference is smaller, never
 * larger: fewer pauses are found, which proves less, never more. A negative difference finds none.
 */
final class G1ConcurrentPauses {
    private final LongSupplier beanCollections;
    private final LongSupplier gcFinishEvents;
    private final LongSupplier nanoTime;
    private final MarkingClock clock;
    private boolean read;
    private long lastCollections;
    private long lastEvents;
    private long lastNanos;

    G1ConcurrentPauses(LongSupplier beanCollections, LongSupplier gcFinishEvents, LongSupplier nanoTime, MarkingClock clock) {
        this.beanCollections = beanCollections;
        this.gcFinishEvents = gcFinishEvents;
        this.nanoTime = nanoTime;
        this.clock = clock;
    }

    /** Whether a JVM with these GC beans needs this: G1 without the {@code G1 Concurrent GC} bean. */
    static boolean needed(List<String> beanNames) {
        return beanNames.contains("G1 Old Generation") && !beanNames.contains("G1 Concurrent GC");
    }

    /** Takes a reading and tells the clock of the concurrent pauses since the last one; a reading that never agrees is skipped. */
    synchronized void update() {
        GcClockReading reading = GcClockReading.take(nanoTime, beanCollections, gcFinishEvents);
        if (reading == null) {
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
