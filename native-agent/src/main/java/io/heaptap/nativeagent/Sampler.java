package io.heaptap.nativeagent;

import io.heaptap.profile.LiveFilter;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.SiteCounters;

import java.io.IOException;
import java.time.Duration;

/**
 * What the session needs from the allocation sampler: {@link NativeAgent} in a JVM, a fake in the
 * session's unit tests, so its state machine, time box and leak watch are checked in seconds
 * without a native library. The methods are {@link NativeAgent}'s; see there for what each does.
 * The live table's upkeep is apart ({@link #live}): the live tracker alone uses it.
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

    NativeSnapshot snapshot(LiveFilter filter, LiveProof proof) throws IOException;

    SiteCounters counters() throws IOException;

    RawSnapshot openSnapshot(LiveProof proof) throws IOException;

    TableSizes tableSizes();

    PathSearch referencePaths(int[] sites, int maxPaths, int maxDepth, int maxObjects, Duration timeLimit) throws IOException;
}
