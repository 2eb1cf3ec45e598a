package io.heaptap.nativeagent;

import io.heaptap.profile.LiveHold;

/**
 * The live table's upkeep: what the collections tell it, and what it holds back. Only the session's
 * live tracker uses it, so a test of the tracker fakes these ten methods and nothing else.
 * {@link NativeAgent} implements it; see there for what each does.
 */
public interface LiveTracking {
    void maintainLive();

    void setGcCount(long collections, long gcFinishes);

    long gcFinishes();

    long collectionSignals();

    long awaitCollectionSignal(long seen, long timeoutMillis);

    void signalCollection();

    /** JNI weak references the agent holds now. */
    long weakRefs();

    /** Objects allocated before this {@link System#nanoTime()} were examined by a whole-heap marking (the byte bound's clock). */
    void setProvenBefore(long nanos);

    /** Lets go of every tracked object not yet examined (heap critical); returns how many. */
    long releaseUnexamined();

    /** What live tracking holds back now, without the session's policy. */
    LiveHold liveHold();
}
