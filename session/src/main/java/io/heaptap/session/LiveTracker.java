package io.heaptap.session;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.LiveTracking;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the live table clean, its GC clock right, and the {@link MarkingClock} fed. GC callbacks may
 * not use JNI, so weak references of collected objects are deleted here, on the daemon thread
 * {@code heaptap-live}, right after collections. It sleeps in the native agent until a JVMTI
 * GarbageCollectionFinish or the report of a collection that can prove liveness
 * ({@link GcBeans#subscribeWholeHeap}) wakes it ({@link LiveTracking#awaitCollectionSignal}), or a second
 * passed: G1, Parallel and Serial post the event for every pause, young ones included; ZGC and
 * Shenandoah post none, and their whole-heap cycles are reported, their young ones (generational ZGC)
 * cleaned after within a second. Nothing is polled for it: it runs after a capture while tracked
 * objects are kept, and must cost nothing between collections. The GC count comes from the GC beans,
 * read after each wake and before each dump ({@link #readGcClocks}).
 */
final class LiveTracker {
    /**
     * Also clean now and then without a GC, so thinned entries' references do not wait long, and read
     * JDK 11-19 G1's concurrent pauses (their times are known only to within two readings).
     */
    static final long IDLE_CLEAN_MILLIS = 1000;
    /**
     * Heap after GC at or above this share of the maximum heap is critical: every tracked object not yet
     * examined is let go at once, so heaptap is never what tips a full heap over (an OutOfMemoryError, or
     * back-to-back collections). 92%: G1 and Parallel start full collections near 90-95% occupancy.
     */
    static final double CRITICAL_SHARE = 0.92;

    private final long idleCleanMillis;
    private final LiveTracking agent;
    private final GcBeans beans;
    private GcBeans.Subscription subscription;
    private Thread thread;
    private volatile MarkingClock markings;
    private volatile G1ConcurrentPauses g1Pauses;  // JDK 11-19's G1 only
    private volatile LiveBound bound;
    private volatile long lastCriticalHeap = -1;
    /**
     * On generational ZGC and Shenandoah ({@link LiveBound#strict}): the heap is judged critical right after each
     * cycle their whole-heap bean reports, on the thread that reports it (ZGC's major cycles; every Shenandoah cycle,
     * young ones included, since one bean reports both).
     */
    private volatile boolean strict;
    /** On generational ZGC: heaptap-live cleans once every {@link #idleCleanMillis}, whatever woke it meanwhile ({@link #paced}). */
    private volatile boolean paced;

    /** How heaptap-live waits out its period on generational ZGC ({@link #paced}); a test holds it. */
    interface Pause {
        void pause(long millis) throws InterruptedException;
    }

    private final Pause pause;

    LiveTracker(LiveTracking agent, GcBeans beans) {
        this(agent, beans, IDLE_CLEAN_MILLIS, Thread::sleep);
    }

    /** {@code idleCleanMillis}: the cleaning without a collection; a test makes it long to see what collections wake. */
    LiveTracker(LiveTracking agent, GcBeans beans, long idleCleanMillis) {
        this(agent, beans, idleCleanMillis, Thread::sleep);
    }

    LiveTracker(LiveTracking agent, GcBeans beans, long idleCleanMillis, Pause pause) {
        this.idleCleanMillis = idleCleanMillis;
        this.pause = pause;
        this.agent = agent;
        this.beans = beans;
        this.markings = new MarkingClock(beans.originNanos(), beans.names(), beans.generationalShenandoah());
    }

    synchronized void start() {
        if (thread != null) {
            return;
        }
        List<String> names = beans.names();
        MarkingClock clock = new MarkingClock(beans.originNanos(), names, beans.generationalShenandoah());
        g1Pauses = G1ConcurrentPauses.needed(names) ? new G1ConcurrentPauses(clock) : null;
        markings = clock;
        strict = LiveBound.strict(beans);
        paced = names.contains(ZGC_MAJOR_CYCLES);
        readGcClocks();  // the first reading: pauses before it prove nothing of this clock's
        subscription = beans.subscribeWholeHeap(this::onCollection);
        long signals = agent.collectionSignals();  // read here: a collection between now and the thread's start still counts
        thread = new Thread(NativeAgent.heaptapThread(() -> run(signals)), "heaptap-live");
        thread.setDaemon(true);
        thread.start();
    }

    synchronized void stop() {
        if (subscription != null) {
            subscription.close();
            subscription = null;
        }
        if (thread != null) {
            thread.interrupt();
            agent.signalCollection();  // its native sleep does not end on an interrupt
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    /** After collections that can prove liveness ({@link GcBeans#subscribeWholeHeap}), on a thread marked as heaptap's. */
    void onCollection(GcBeans.Collection collection) {
        readGcClocks();
        markings.onCollection(collection.gcName(), collection.cause(), collection.id(), collection.startMillis(), collection.endMillis());
        agent.setProvenBefore(markings.provenBeforeNanos());
        if (strict) {
            // On generational ZGC and Shenandoah the pools' usage after a young cycle counts the garbage that cycle
            // promoted or allocated meanwhile: under flat-out allocation with a 40% live set it read above 92% of the
            // heap dozens of times a run (the coverage bench), and every release lost the sites' estimates. A
            // whole-heap cycle is what frees that garbage, so the heap is judged after what the whole-heap bean reports,
            // at once: ZGC's major cycles only; generational Shenandoah's one bean reports its young cycles too.
            releaseIfCritical();
        }
        agent.signalCollection();
    }

    /** The byte bound for a capture that asks for {@code requested} ({@link LiveBound#of}); it is in force from now on. */
    LiveBound bound(LargeObjects large, double requested) {
        LiveBound b = LiveBound.of(beans, large, Runtime.getRuntime().maxMemory(), requested);
        bound = b;
        return b;
    }

    /** Whether weak references keep young garbage until a whole-heap marking on this JVM's collector. */
    boolean strict() {
        return LiveBound.strict(beans);
    }

    LiveBound bound() {
        return bound;
    }

    /** The policy a snapshot's hold is shown with, or LiveHold.NONE without a bound. */
    io.heaptap.profile.LiveHold policy() {
        LiveBound b = bound;
        return b == null ? io.heaptap.profile.LiveHold.NONE : b.policy();
    }

    /** The heap after GC when it was last found critical and tracking let go of what it held, or -1 never. */
    long lastCriticalHeap() {
        return lastCriticalHeap;
    }

    /**
     * Heap critical ({@link #CRITICAL_SHARE}): lets go of every tracked object not yet examined. The heap is read
     * only while something is held back (a JNI call first), so idle tracking reads nothing.
     */
    void releaseIfCritical() {
        if (agent.liveHold().unexaminedBytes() <= 0) {
            return;
        }
        long max = beans.heap().maxBytes();
        long after = beans.heapAfterGc();
        if (max > 0 && after >= 0 && after >= CRITICAL_SHARE * max) {
            // Recorded first: whoever sees the release (a status, a test) sees why it happened too.
            lastCriticalHeap = after;
            agent.releaseUnexamined();
        }
    }

    /**
     * The liveness-proof clock of the current tracking (a new one after each reset), up to date: on
     * JDK 11-19's G1 the concurrent pauses since the last collection's notification are counted first,
     * and the agent's GC count is brought up to date (a dump asks for this clock first).
     */
    MarkingClock markings() {
        readGcClocks();
        MarkingClock clock = markings;
        agent.setProvenBefore(clock.provenBeforeNanos());
        return clock;
    }

    /**
     * One reading of the two GC clocks ({@link GcClockReading}): the GC beans' count of collections and, read
     * in agreement with it, the agent's count of JVMTI GC finishes. The agent learns from it which finishes
     * were pauses that free nothing (G1's Remark and Cleanup), which no tracked object counts as survived; on
     * JDK 11-19's G1 the same reading finds those pauses for the marking clock ({@link G1ConcurrentPauses}).
     * Runs on heaptap-live, a GC bean's listener and the session's thread at once, without a lock (a lock held
     * while reading the beans would be held while calling into them): the agent and the pause finder each
     * ignore a reading older than the last one they took.
     */
    private void readGcClocks() {
        GcClockReading reading = GcClockReading.take(System::nanoTime, beans::collectionCount, agent::gcFinishes);
        if (reading == null) {
            agent.setGcCount(beans.collectionCount(), -1);
            return;
        }
        agent.setGcCount(reading.collections(), reading.finishes());
        G1ConcurrentPauses pauses = g1Pauses;
        if (pauses != null) {
            pauses.update(reading);
        }
    }

    /**
     * Cleans after every signal, and at least every {@link #idleCleanMillis}: thinned entries' references go then too.
     * On generational ZGC it cleans once every {@link #idleCleanMillis} instead ({@link #paced}).
     */
    private void run(long signalsAtStart) {
        long seen = signalsAtStart;
        while (!Thread.currentThread().isInterrupted()) {
            long signals = paced ? paced() : agent.awaitCollectionSignal(seen, idleCleanMillis);
            if (Thread.currentThread().isInterrupted()) {
                return;  // stop() asked us to end
            }
            seen = signals;
            // After every pause, and at least once a second: a Remark is told from a young collection while it is the
            // only new one, and on JDK 11-19's G1 a concurrent pause's lower bound is never older.
            readGcClocks();
            agent.setProvenBefore(markings.provenBeforeNanos());
            agent.maintainLive();
            if (!strict) {
                releaseIfCritical();
            }
        }
    }

    /** The bean of generational ZGC's whole-heap cycles: its young cycles are another bean's, reported to no one. */
    static final String ZGC_MAJOR_CYCLES = "ZGC Major Cycles";

    /**
     * Generational ZGC posts no JVMTI GarbageCollectionFinish, its young cycles leave weak references alone, and only its
     * major cycles clear those of dead objects: a cleaning after each major cycle finds at most what one a second later
     * would. Waking for each one cost more than the cleaning: on JDK 25 ZGC, 256 MiB and 5 major cycles a second,
     * heaptap-live took 1.5% of the process's CPU (async-profiler, cpu), most of it what any Java thread pays to run after
     * a GC phase (nmethod entry barriers, stack watermarks), all of it taken from ZGC's own threads on a saturated
     * machine. The critical heap is judged where the cycle is reported ({@link #onCollection}). Not on generational
     * Shenandoah: its "Shenandoah Cycles" bean reports young cycles too, and those clear dead young objects' weak
     * references; cleaned only once a second, the dead entries of a fast churn stayed counted against the byte bound,
     * which then thinned the live entries away (LiveIT's promoted set: none left of 100 MB).
     *
     * @return the collection signals so far (the interrupt flag set when stop() ends the wait)
     */
    private long paced() {
        try {
            pause.pause(idleCleanMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return agent.collectionSignals();
    }
}
