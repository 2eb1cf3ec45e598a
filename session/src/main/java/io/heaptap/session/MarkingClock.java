package io.heaptap.session;

import io.heaptap.profile.Markings;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * The liveness-proof clock: counts whole-heap markings and keeps the instant before which every
 * allocated object has been examined by one ({@link #provenBeforeNanos()}). A tracked object
 * allocated before that instant whose weak reference is still set was reachable when a marking
 * that began after its allocation completed: it is <b>proven live</b>. Anything younger is not
 * yet examined. A JNI weak reference is cleared only when a collection proves its object
 * unreachable, and a young collection proves nothing about the old generation, so only these count:
 * <ul>
 * <li>stop-the-world full collections (Serial {@code MarkSweepCompact}, Parallel {@code PS MarkSweep},
 * G1 {@code G1 Old Generation}): the marking starts with the pause;</li>
 * <li>concurrent cycles that mark the whole heap (ZGC {@code ZGC Cycles}, {@code Shenandoah Cycles}, and
 * generational ZGC's {@code ZGC Major Cycles} and generational Shenandoah's {@code Shenandoah Cycles} when
 * asked for explicitly, see {@link #EXPLICIT_CAUSES}):
 * the marking starts with the cycle, and objects allocated during it count as live without being
 * examined, so the cycle's start bounds what it proves;</li>
 * <li>G1's concurrent cycles, seen as their Remark and Cleanup pauses: on JDK 20+ through the
 * {@code G1 Concurrent GC} bean, on JDK 11-19 (no such bean) through {@link G1ConcurrentPauses}, from the
 * JVM's GC events. Neither says when a cycle's marking began (at an earlier young pause), so concurrent
 * pause {@code n} proves only what was allocated before pause {@code n-3} ended. Cycles run one after
 * another, each Remark then Cleanup: whichever of the two pause {@code n} is, the last marking completed
 * by then began after pause {@code n-3} ended, even when one Remark in between only restarted a marking
 * whose mark stack overflowed (it completes nothing). Two back would not do at such a Remark: the last
 * completed marking ended at Remark {@code n-2} and began before it. (Two overflows in one cycle, rarer
 * still, would prove too much until that cycle's completing Remark.);</li>
 * <li>heaptap's own forced collections ({@link #forced}): JVMTI's ForceGarbageCollection returns once
 * a whole-heap collection that began after the call has completed, on every collector.</li>
 * </ul>
 *
 * <p>The collector's times are milliseconds since the JVM's management started, a little after the
 * uptime's origin: mapped onto {@link System#nanoTime()} through the uptime, they come out a little
 * early (up to some 100 ms), which proves less, never more.
 */
final class MarkingClock {
    /** The cause JVMTI's ForceGarbageCollection gives: heaptap's forced collections are counted once. */
    static final String FORCED_CAUSE = "JvmtiEnv ForceGarbageCollection";
    /**
     * Causes of the generational ZGC major collections that examine young objects too. A major cycle the
     * collector starts by itself leaves the young generation's weak references alone (measured: after two
     * such cycles, 1 GiB of a churning site's garbage still referenced); one asked for explicitly
     * promotes everything first and so examines the whole heap.
     */
    static final java.util.Set<String> EXPLICIT_CAUSES = java.util.Set.of(FORCED_CAUSE, "System.gc()", "Diagnostic Command",
            "Heap Dump Initiated GC", "Heap Inspection Initiated GC");

    /** How a GC bean's notification bears on the clock. */
    enum Kind {
        /** Not a whole-heap marking (young collections, pauses inside cycles). */
        NONE,
        /** A stop-the-world full collection, or a concurrent cycle that marks the whole heap: bounded by its start. */
        WHOLE_HEAP,
        /** A pause of G1's concurrent cycle (Remark or Cleanup): bounded by the end of the pause three before. */
        G1_CONCURRENT_PAUSE;

        static Kind ofBean(String name) {
            return switch (name) {
                case "MarkSweepCompact", "PS MarkSweep", "G1 Old Generation", "ZGC Cycles", "ZGC Major Cycles", "Shenandoah Cycles" ->
                        WHOLE_HEAP;
                case "G1 Concurrent GC" -> G1_CONCURRENT_PAUSE;
                default -> NONE;
            };
        }
    }

    private final long originNanos;
    private final String limitation;
    private final boolean forcedProves;
    private final boolean minorLeavesWeakRefs;
    /** The bean whose cycles prove liveness only when asked for explicitly ({@link #EXPLICIT_CAUSES}), or null. */
    private final String explicitOnly;
    private long completed;
    private long forced;
    private long forcedCalls;
    private long forcedNotifications;
    private long provenBeforeNanos = Long.MIN_VALUE;
    private long lastCompletedNanos;
    private boolean anyCompleted;
    /** Ends of the last three G1 concurrent pauses, newest first (or lower bounds of them, see {@link #onG1ConcurrentPauses}). */
    private final long[] g1PauseEnds = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
    private long g1PausesFromEvents;

    /**
     * {@code originNanos}: the nanoTime at or before the collector's millisecond clock read 0; the GC beans' names;
     * whether Shenandoah runs generational ({@link GcBeans#generationalShenandoah}).
     */
    MarkingClock(long originNanos, java.util.List<String> beanNames, boolean generationalShenandoah) {
        this.originNanos = originNanos;
        this.limitation = limitationFor(beanNames, generationalShenandoah);
        this.forcedProves = beanNames.stream().anyMatch(n -> Kind.ofBean(n) != Kind.NONE);
        this.minorLeavesWeakRefs = beanNames.contains("ZGC Minor Cycles");
        this.explicitOnly = beanNames.contains("ZGC Major Cycles") ? "ZGC Major Cycles"
                : generationalShenandoah ? "Shenandoah Cycles" : null;
    }

    /**
     * Generational ZGC's minor collections do not process JNI weak references (only major ones do), so
     * a tracked young object can outlive minor collections through heaptap's reference alone: before a
     * marking, nothing tracked may be upscaled there (measured: a 5x overestimate of the not yet examined
     * part under a 256 MiB heap of garbage).
     */
    boolean trackingHoldsAll() {
        return minorLeavesWeakRefs;
    }

    static String limitationFor(java.util.List<String> beanNames, boolean generationalShenandoah) {
        if (beanNames.contains("ZGC Minor Cycles")) {
            return "generational ZGC's own major cycles leave young objects' weak references alone: only System.gc() and"
                    + " the collections heaptap forces (--gc) prove liveness here";
        }
        if (generationalShenandoah) {
            return "generational Shenandoah's own cycles are young ones mostly, which leave the old generation unexamined,"
                    + " and its GC beans do not tell them apart: only System.gc() and the collections heaptap forces (--gc)"
                    + " prove liveness here";
        }
        if (beanNames.stream().noneMatch(n -> Kind.ofBean(n) != Kind.NONE)) {
            return "heaptap knows no whole-heap marking of this collector (" + String.join(", ", beanNames)
                    + "): nothing is proven live, not even by a forced collection";
        }
        return "";
    }

    /** A GC bean's notification: its name, cause, the bean's count (GcInfo id), and start and end in the collector's milliseconds. */
    synchronized void onCollection(String beanName, String cause, long id, long startMillis, long endMillis) {
        Kind kind = Kind.ofBean(beanName);
        if (kind == Kind.NONE || beanName.equals(explicitOnly) && !EXPLICIT_CAUSES.contains(cause)) {
            return;
        }
        long start = originNanos + TimeUnit.MILLISECONDS.toNanos(startMillis);
        long end = originNanos + TimeUnit.MILLISECONDS.toNanos(endMillis);
        if (kind == Kind.G1_CONCURRENT_PAUSE) {
            // Remark and Cleanup alternate: the bean's own count (the GcInfo id) is odd at a Remark. A
            // marking restarted for mark-stack overflow adds a Remark and shifts this count.
            g1ConcurrentPause(end, id % 2 == 1);
            return;
        }
        provenBeforeNanos = Math.max(provenBeforeNanos, start);
        // heaptap's own forced collections are counted by forced(); their notifications may come
        // before or after it, so only forced collections beyond heaptap's own count here.
        if (FORCED_CAUSE.equals(cause) && ++forcedNotifications <= forcedCalls) {
            return;
        }
        complete(end);
    }

    /**
     * JDK 11-19's G1: {@code count} concurrent pauses (Remark or Cleanup), seen by {@link G1ConcurrentPauses},
     * each of which ended after {@code endedAfterNanos}. That lower bound stands in for the pause's end, which
     * proves less, never more. Which of them is a Remark is unknown, so a marking is counted at every second
     * one: never more than the Remarks that ran.
     */
    synchronized void onG1ConcurrentPauses(long count, long endedAfterNanos) {
        for (long i = 0; i < count; i++) {
            g1ConcurrentPause(endedAfterNanos, ++g1PausesFromEvents % 2 == 0);
        }
    }

    private void g1ConcurrentPause(long endNanos, boolean completesMarking) {
        provenBeforeNanos = Math.max(provenBeforeNanos, g1PauseEnds[2]);
        g1PauseEnds[2] = g1PauseEnds[1];
        g1PauseEnds[1] = g1PauseEnds[0];
        g1PauseEnds[0] = endNanos;
        if (completesMarking) {
            complete(endNanos);
        }
    }

    private void complete(long endNanos) {
        completed++;
        anyCompleted = true;
        lastCompletedNanos = Math.max(lastCompletedNanos, endNanos);
    }

    /** heaptap is about to force a collection: its notification, whenever it comes, is not counted twice. */
    synchronized void beginForced() {
        forcedCalls++;
    }

    /** The collection announced by {@link #beginForced} did not run: no notification of it is to be skipped. */
    synchronized void cancelForced() {
        forcedCalls = Math.max(forcedNotifications, forcedCalls - 1);
    }

    /**
     * heaptap forced a whole-heap collection that began after {@code beganNanos} and has completed (after
     * {@link #beginForced}). A collector that marks nothing (Epsilon) proves nothing by it.
     */
    synchronized void forced(long beganNanos) {
        if (!forcedProves) {
            return;
        }
        provenBeforeNanos = Math.max(provenBeforeNanos, beganNanos);
        forced++;
        complete(System.nanoTime());
    }

    /** Objects allocated before this {@link System#nanoTime()} have been examined by a completed marking. */
    synchronized long provenBeforeNanos() {
        return provenBeforeNanos;
    }

    /** Markings completed since this clock began. */
    synchronized long completed() {
        return completed;
    }

    synchronized long forcedCount() {
        return forced;
    }

    String limitation() {
        return limitation;
    }

    /** The clock as a view shows it; {@code atWindowStart} and {@code forcedAtWindowStart} are the counts when its window began. */
    synchronized Markings markings(long atWindowStart, long forcedAtWindowStart) {
        Instant last = null;
        if (anyCompleted) {
            long ago = System.nanoTime() - lastCompletedNanos;
            last = Instant.now().minusNanos(Math.max(0, ago));
        }
        long horizon = provenBeforeNanos == Long.MIN_VALUE ? -1
                : TimeUnit.NANOSECONDS.toMillis(Math.max(0, System.nanoTime() - provenBeforeNanos));
        return new Markings(completed, Math.max(0, completed - atWindowStart), Math.max(0, forced - forcedAtWindowStart), last,
                limitation, horizon);
    }
}
