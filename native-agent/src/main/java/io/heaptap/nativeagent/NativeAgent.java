package io.heaptap.nativeagent;

import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveHold;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.SiteCounters;
import io.heaptap.wire.SnapshotDecoder;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

/**
 * The JNI facade of libheaptap.so: the only Java code that calls into the native agent. There is
 * one native sampler per JVM; the session owner (the Controller) serialises calls to it.
 */
public final class NativeAgent implements Sampler, LiveTracking, Snapshots {
    /** Snapshots the agent holds in native memory at once (snapshotBuffers.h). */
    public static final int MAX_OPEN_SNAPSHOTS = 4;
    private static NativeAgent instance;
    private static NativeAgentException loadFailure;
    /** The JVM's own sampling interval as last set (JDK 11-24 raise it at high allocation rates). */
    private volatile long jvmIntervalBytes;

    private NativeAgent() {
    }

    /** The agent of this JVM, loading libheaptap.so on first use. */
    public static synchronized NativeAgent get() throws NativeAgentException {
        if (instance == null && loadFailure == null) {
            try {
                String error = initErrorLoadingIfNeeded();
                if (error != null) {
                    throw new NativeAgentException(NativeAgentException.Reason.UNAVAILABLE, error);
                }
                instance = new NativeAgent();
                prepareMarking();
            } catch (NativeAgentException e) {
                loadFailure = e;
            }
        }
        if (loadFailure != null) {
            throw loadFailure;
        }
        return instance;
    }

    /** Uses the library if it is already there as a JVMTI agent; otherwise loads it. */
    private static String initErrorLoadingIfNeeded() throws NativeAgentException {
        try {
            return initError();
        } catch (UnsatisfiedLinkError notLoadedYet) {
            NativeLibrary.load();
            return initError();
        }
    }

    /**
     * Starts sampling. The native side stops accepting samples at the settings' duration by itself,
     * whatever happens to the Java side. A live budget above 0 tracks sampled objects through weak
     * references in a table of that size; objects tracked by earlier captures stay tracked until
     * {@link #clear}. Objects of at least the large threshold (0: none) share a separate, smaller
     * budget (G1's humongous objects).
     */
    @Override
    public void start(SamplerSettings s) throws NativeAgentException {
        long jvmInterval = JvmSamplingInterval.forRequested(Runtime.version().feature(), s.intervalBytes());
        jvmIntervalBytes = jvmInterval;
        String[] detail = new String[1];
        int code = start0(s.intervalBytes(), jvmInterval, s.duration().toNanos(), s.stackDepth(), s.maxStacks(), s.liveBudget(),
                s.largeThreshold(), s.largeBudget(), s.byteBudget(), s.largeByteBudget(), s.youngHeld(), detail);
        if (code == START_OK) {
            return;
        }
        jvmIntervalBytes = 0;
        // The codes are sampler.h's StartResult; the detail (a JVMTI error's name and where) comes apart.
        throw switch (code) {
            case START_CAPABILITY_HELD -> new NativeAgentException(NativeAgentException.Reason.CAPABILITY_HELD,
                    "another JVMTI agent in this JVM (async-profiler, a Datadog or other profiler) holds the "
                            + "heap-sampling capability; stop its allocation profiling and try again");
            case START_ALREADY_RUNNING -> new NativeAgentException(NativeAgentException.Reason.ALREADY_RUNNING,
                    "a capture is already running");
            default -> new NativeAgentException(NativeAgentException.Reason.JVMTI_ERROR,
                    detail[0] != null ? detail[0] : "the native agent refused to start (code " + code + ")");
        };
    }

    /**
     * Changes the running capture's interval: what is kept changes at once, the JVM's own interval
     * (JDK 25+; before, 8 KiB or more at high {@code allocatedBytesPerSecond}, and at least
     * {@code minJvmIntervalBytes}, see {@link JvmSamplingInterval}) for each thread from its next sample on,
     * and every sample is weighted with the interval that governed it. A negative allocation rate means
     * unknown. False when no capture runs.
     */
    @Override
    public synchronized boolean setInterval(long intervalBytes, long allocatedBytesPerSecond, long minJvmIntervalBytes) {
        long jvmInterval = JvmSamplingInterval.forRate(Runtime.version().feature(), intervalBytes, allocatedBytesPerSecond,
                jvmIntervalBytes, minJvmIntervalBytes);
        boolean set = setInterval0(intervalBytes, jvmInterval);
        if (set) {
            jvmIntervalBytes = jvmInterval;
        }
        return set;
    }

    @Override
    public long jvmIntervalBytes() {
        return jvmIntervalBytes;
    }

    /** This agent: the natives of the live table are its own. */
    @Override
    public LiveTracking live() {
        return this;
    }

    /** This agent: the natives of the snapshots are its own. */
    @Override
    public Snapshots snapshots() {
        return this;
    }

    /** Stops sampling and gives the heap-sampling capability back. Harmless when not sampling. */
    public void stop() {
        stop0();
        jvmIntervalBytes = 0;  // no JVM events from here on
    }

    /** Deletes the weak references of collected and thinned objects; call after collections. */
    public void maintainLive() {
        maintainLive0();
    }

    /**
     * Tells the agent how many collections have happened (the GC beans' count of those that free
     * objects: the clock of "GCs survived") and, read in agreement with it, {@link #gcFinishes} (-1 if
     * no reading agreed): the finishes beyond the collections' growth since the last such reading were
     * pauses that free nothing (G1's Remark and Cleanup), which no object counts as survived.
     */
    public void setGcCount(long collections, long gcFinishes) {
        setGcCount0(collections, gcFinishes);
    }

    /**
     * JVMTI GarbageCollectionFinish events counted so far (monotonic; events are on while objects are
     * tracked). Every stop-the-world pause posts one, G1's Remark and Cleanup included, which JDK 11-19
     * count in no GC MXBean.
     */
    public long gcFinishes() {
        return gcFinishes0();
    }

    /**
     * Signals so far of what should make the live table be cleaned: collections' ends (JVMTI, counted
     * in the GC callback) and {@link #signalCollection} calls. Only compared for equality.
     */
    public long collectionSignals() {
        return collectionSignals0();
    }

    /**
     * Sleeps in native code until {@link #collectionSignals} differs from {@code seen} or
     * {@code timeoutMillis} pass; returns the signals then. Not ended by an interrupt: whoever
     * interrupts the waiting thread also calls {@link #signalCollection}.
     */
    public long awaitCollectionSignal(long seen, long timeoutMillis) {
        return awaitCollectionSignal0(seen, timeoutMillis);
    }

    /** Wakes {@link #awaitCollectionSignal}: a collection a GC bean reported, or a request to look again. */
    public void signalCollection() {
        signalCollection0();
    }

    /** JNI weak references the agent holds now; 0 after {@link #clear}. */
    public long weakRefs() {
        return weakRefs0();
    }

    /**
     * Objects allocated before this {@link System#nanoTime()} were examined by a completed whole-heap marking:
     * the byte bound counts only younger ones (liveTable.h). Only grows.
     */
    @Override
    public void setProvenBefore(long nanos) {
        setProvenBefore0(nanos);
    }

    /** Heap critical: deletes the weak reference of every tracked object not yet examined, at once. Returns how many. */
    @Override
    public long releaseUnexamined() {
        return releaseUnexamined0();
    }

    /** What live tracking holds back now (the byte bound, bytes held, thinnings), without the session's policy. */
    @Override
    public LiveHold liveHold() {
        double[] h = liveHolding0();
        if (h == null || h.length < 9) {
            return LiveHold.NONE;
        }
        return new LiveHold((long) h[0], (long) h[1], (long) h[2], (long) h[3], (long) h[4], (long) h[5], (long) h[6], (long) h[7],
                h[8], 0, false, "");
    }

    /** A full collection through JVMTI (works even with -XX:+DisableExplicitGC). */
    public boolean forceGc() {
        return forceGc0();
    }

    /** Stops sampling, forgets everything recorded and deletes every weak reference. */
    public void clear() {
        clear0();
    }

    /** Whether sampling events are enabled (they stay enabled past the deadline until stop). */
    public boolean isSampling() {
        return sampling0();
    }

    /** Samples recorded by the current or last capture; cheap, unlike a snapshot. */
    public long sampleCount() {
        return samples0();
    }

    /**
     * The JVM's sampling events since the agent loaded (never reset), the ones the agent thinned away
     * included: on JDK 11-24 each costs the allocating thread whether it is kept or not.
     */
    @Override
    public long jvmEvents() {
        return jvmEvents0();
    }

    /**
     * Nanoseconds the sample callback spent on kept samples since the agent loaded (never reset): the
     * cost heaptap's sampling puts on the allocating threads, the JVM's own part of each event aside.
     */
    public long sampleNanos() {
        return sampleNanos0();
    }

    /** Estimated bytes of native memory held by the agent's tables. */
    public long nativeMemoryBytes() {
        return memory0();
    }

    /**
     * The current or last capture, every counter as it stands (a window of them is the session's:
     * {@link io.heaptap.wire.CounterWindow}), with the live set now seen through a filter and split by
     * the proof of liveness read before this call (see {@link LiveProof}). Decoded from the native
     * snapshot a chunk at a time.
     */
    public NativeSnapshot snapshot(LiveFilter filter, LiveProof proof) throws IOException {
        try (RawSnapshot raw = openSnapshot(proof)) {
            return NativeSnapshot.read(raw.stream(), filter, raw.proof());
        }
    }

    /**
     * Only the counters of {@link #snapshot}, read from the native snapshot a chunk at a time without
     * decoding the rest: an end of a counter window that costs the heap 40 bytes a site ({@link SiteCounters}).
     */
    public SiteCounters counters() throws IOException {
        try (RawSnapshot raw = openSnapshot(LiveProof.NONE)) {
            return SnapshotDecoder.counters(new DataInputStream(new BufferedInputStream(raw.stream())));
        }
    }

    /**
     * The current or last capture, plus the live set now, undecoded and held in native memory until
     * closed (for a client that decodes it itself, and for {@link #snapshot}). Its proof is
     * {@code proof} with the heap in use around the snapshot: the larger of the readings before and
     * after it, so that a collection right after it cannot make its figures look impossible.
     *
     * @throws IOException the agent holds as many snapshots as it can: close one, or wait
     */
    public RawSnapshot openSnapshot(LiveProof proof) throws IOException {
        java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
        long usedBefore = memory.getHeapMemoryUsage().getUsed();
        long handle = snapshotOpen0();
        if (handle < 0) {
            throw new IOException("the native agent holds " + MAX_OPEN_SNAPSHOTS + " snapshots already; try again when a dump ends");
        }
        java.lang.management.MemoryUsage heap = memory.getHeapMemoryUsage();
        return new RawSnapshot(handle, snapshotSize0(handle), proof.withHeap(Math.max(usedBefore, heap.getUsed()), heap.getMax()));
    }

    /** The sizes of the agent's tables now (what a dump's Java-heap cost is estimated from). */
    public TableSizes tableSizes() {
        return TableSizes.of(tableSizes0());
    }

    /** {@link TableSizes#COUNT} figures in its components' order; read only through {@link TableSizes#of}. */
    private static native long[] tableSizes0();

    static int readSnapshot(long handle, long offset, byte[] dst) {
        return snapshotRead0(handle, offset, dst, dst.length);
    }

    static void closeSnapshot(long handle) {
        snapshotClose0(handle);
    }

    /**
     * Finds the reference chains from the GC roots to up to {@code maxPaths} tracked objects of the
     * given sites (indices into {@link NativeSnapshot#sites()}), the oldest first, with one JVMTI
     * heap walk. <b>The walk pauses the application</b> for up to {@code timeLimit}. It records at
     * most {@code maxObjects} objects and follows references at most {@code maxDepth} deep from a
     * root or a static field; hitting the time or object bound ends it early with the chains found so
     * far ({@link PathSearch#isCutOff()}).
     *
     * @throws IllegalStateException when the walk cannot run (another one is running, JVMTI refused)
     */
    public PathSearch referencePaths(int[] sites, int maxPaths, int maxDepth, int maxObjects, Duration timeLimit)
            throws IOException {
        byte[] bytes = referencePaths0(sites.clone(), maxPaths, maxDepth, maxObjects, timeLimit.toNanos());
        if (bytes == null) {
            throw new IOException("the native agent could not return the reference paths");
        }
        return PathSearchDecoder.decode(bytes);
    }

    /**
     * Marks the calling thread as heaptap's until closed (try-with-resources): what it allocates
     * meanwhile is not sampled, so building a dump or answering a JMX call never shows in the
     * application's profile. Nests: an inner mark leaves the outer one in place. Allocates
     * nothing, before or after marking: an allocation before the mark would be sampled as the
     * application's (it was, from GC notifications). Without the native library it does nothing.
     */
    public static HeaptapWork heaptapWork() {
        return mark(true) ? HeaptapWork.NESTED : HeaptapWork.OUTERMOST;
    }

    /** The mark of {@link #heaptapWork()}; closing the outermost one unmarks the thread. */
    public static final class HeaptapWork implements AutoCloseable {
        private static final HeaptapWork OUTERMOST = new HeaptapWork(false);
        private static final HeaptapWork NESTED = new HeaptapWork(true);
        private final boolean wasMarked;

        private HeaptapWork(boolean wasMarked) {
            this.wasMarked = wasMarked;
        }

        @Override
        public void close() {
            if (!wasMarked) {
                mark(false);
            }
        }
    }

    /**
     * A thread body that marks its thread as heaptap's first (for heaptap's own threads). Call it
     * on a thread that is marked already (the lambda is allocated by the caller).
     */
    public static Runnable heaptapThread(Runnable body) {
        return () -> {
            mark(true);
            body.run();
        };
    }

    /**
     * Links the marking native and initialises {@link HeaptapWork} now, while nothing samples:
     * the first call of a native method looks it up through Java code that allocates, and that
     * would happen before the first mark took effect.
     */
    private static void prepareMarking() {
        if (!markHeaptapThread0(true)) {
            markHeaptapThread0(false);
        }
        Objects.requireNonNull(HeaptapWork.OUTERMOST);  // loads and initialises the class
    }

    private static boolean mark(boolean heaptap) {
        synchronized (NativeAgent.class) {
            if (instance == null) {
                return false;
            }
        }
        return markHeaptapThread0(heaptap);
    }

    private static native boolean markHeaptapThread0(boolean mark);

    private static native String initError();

    /** sampler.h's StartResult values. */
    static final int START_OK = 0;
    static final int START_CAPABILITY_HELD = 1;
    static final int START_ALREADY_RUNNING = 2;

    /** Returns a StartResult code; for a JVMTI error, {@code detail[0]} says which and where. */
    private static native int start0(long intervalBytes, long jvmIntervalBytes, long durationNanos, int stackDepth, int maxStacks, int liveBudget,
                                        long largeThreshold, int largeBudget, long byteBudget, long largeByteBudget,
                                        boolean youngHeld, String[] detail);

    private static native void setProvenBefore0(long nanos);

    private static native long releaseUnexamined0();

    private static native double[] liveHolding0();

    private static native void maintainLive0();

    private static native void setGcCount0(long collections, long gcFinishes);

    private static native long gcFinishes0();

    private static native long collectionSignals0();

    private static native long awaitCollectionSignal0(long seen, long timeoutMillis);

    private static native void signalCollection0();

    private static native long weakRefs0();

    private static native boolean forceGc0();

    private static native void stop0();

    private static native boolean setInterval0(long intervalBytes, long jvmIntervalBytes);

    private static native void clear0();

    private static native boolean sampling0();

    private static native long samples0();

    private static native long sampleNanos0();

    private static native long jvmEvents0();

    private static native long memory0();

    private static native long snapshotOpen0();

    private static native long snapshotSize0(long handle);

    private static native int snapshotRead0(long handle, long offset, byte[] dst, int len);

    private static native void snapshotClose0(long handle);

    private static native byte[] referencePaths0(int[] sites, int maxPaths, int maxDepth, int maxObjects, long timeLimitNanos);
}
