package io.heaptap.nativeagent;

/**
 * What the session needs from the allocation sampler: {@link NativeAgent} in a JVM, a fake in the
 * session's unit tests, so its state machine, time box and leak watch are checked in seconds
 * without a native library. The methods are {@link NativeAgent}'s; see there for what each does.
 * The live table's upkeep ({@link #live}) and the reads ({@link #snapshots}) are apart: each has
 * one user in the session, and a test fakes only the part it needs.
 */
public interface Sampler {
    void start(SamplerSettings settings) throws NativeAgentException;

    void stop();

    default boolean setInterval(long intervalBytes, long allocatedBytesPerSecond) {
        return setInterval(intervalBytes, allocatedBytesPerSecond, 0);
    }

    /** {@code minJvmIntervalBytes}: the least the JVM's own interval may be (a cost bound's, JDK 11-24), 0 for none. */
    boolean setInterval(long intervalBytes, long allocatedBytesPerSecond, long minJvmIntervalBytes);

    /** The JVM's own sampling interval while a capture samples, 0 when none does. */
    long jvmIntervalBytes();

    /** The live table's upkeep (the session's live tracker). */
    LiveTracking live();

    boolean forceGc();

    void clear();

    long sampleCount();

    long sampleNanos();

    /** The JVM's sampling events so far, thinned-away ones included (never reset). */
    long jvmEvents();

    long nativeMemoryBytes();

    /** Every read of what it holds (the session's profile reader). */
    Snapshots snapshots();
}
