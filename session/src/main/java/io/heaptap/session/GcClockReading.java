package io.heaptap.session;

import java.util.function.LongSupplier;

/**
 * The two GC clocks read in agreement: the GC beans' count of collections and the JVMTI
 * GarbageCollectionFinish events, which on G1 also count the Remark and Cleanup pauses. Their
 * difference tells those pauses apart, so it must not be skewed by a pause between the two reads.
 *
 * <p>Taken as beans, events, beans, events and kept only if both pairs agree. Both counts grow at the
 * end of a pause, inside its safepoint, and reading a bean's count waits for a safepoint to end, so a
 * reading that agrees holds every pause on both sides or on neither.
 *
 * @param nanos       when the try that agreed began
 * @param collections the beans' count
 * @param finishes    the JVMTI events' count
 */
record GcClockReading(long nanos, long collections, long finishes) {
    /** Tries per reading: each retry follows a pause, and pauses are milliseconds apart at the least. */
    static final int TRIES = 4;

    /** A reading that agrees, or null if none did in {@link #TRIES}. */
    static GcClockReading take(LongSupplier nanoTime, LongSupplier collections, LongSupplier finishes) {
        for (int i = 0; i < TRIES; i++) {
            long nanos = nanoTime.getAsLong();
            long c = collections.getAsLong();
            long f = finishes.getAsLong();
            long cAgain = collections.getAsLong();
            long fAgain = finishes.getAsLong();
            if (c == cAgain && f == fAgain) {
                return new GcClockReading(nanos, c, f);
            }
        }
        return null;
    }
}
