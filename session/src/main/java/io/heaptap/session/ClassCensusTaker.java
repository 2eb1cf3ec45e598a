package io.heaptap.session;

import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassHistogram;
import io.heaptap.profile.census.HeapReading;
import io.heaptap.profile.census.HeapSlack;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Takes an exact class census in this JVM, right after a whole-heap collection heaptap forced: the
 * JVM's own {@code GC.class_histogram -all} through the DiagnosticCommand MBean, in-process. {@code -all}
 * because the collection was just forced: without it the command would collect again (a second full
 * pause), and on ZGC its collection is skipped (ZGC cannot collect from the VM thread), so a census after
 * heaptap's own forced collection is right on every collector, and the marking clock counts that one
 * collection once. Measured on a 1 GiB live set (G1, 2 shared cores): the census pause alone is
 * 280-330 ms, where {@code GC.class_histogram} (collection and census in one pause) takes 590-850 ms.
 *
 * <p>The census comes back as one String that grows with the loaded classes: its size is estimated from
 * the loaded class count ({@link ClassHistogram#heapNeeded}) and reserved from heaptap's heap budget
 * first; a census that would not fit is refused with a message, never taken.
 */
final class ClassCensusTaker {
    /** Where a census comes from: the JVM (see {@link #PLATFORM}), or a fake in tests. */
    interface Source {
        long loadedClasses();

        /** {@code GC.class_histogram -all}'s text. */
        String histogram() throws Exception;
    }

    static final Source PLATFORM = new Source() {
        @Override
        public long loadedClasses() {
            return ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
        }

        @Override
        public String histogram() throws JMException {
            ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
            return (String) ManagementFactory.getPlatformMBeanServer().invoke(name, "gcClassHistogram",
                    new Object[] {new String[] {"-all"}}, new String[] {String[].class.getName()});
        }
    };

    private final HeapBudget budget;
    private final GcBeans beans;
    private final Source source;

    ClassCensusTaker(HeapBudget budget, GcBeans beans, Source source) {
        this.budget = budget;
        this.beans = beans;
        this.source = source;
    }

    /** Which reading of the heap after a forced collection a trend should follow on this JVM's collector. */
    HeapReading reading() {
        return beans.collectsConcurrently() ? HeapReading.CENSUS : HeapReading.COLLECTOR;
    }

    /** How far from its reading's reaching the maximum heap this JVM's collector can fail ({@link GcBeans#slack}). */
    HeapSlack slack() {
        return beans.slack();
    }

    /** Whether the collection a census just followed compacted everything ({@link GcBeans#lastWholeHeapCompactedFully}). */
    boolean compactedFully() {
        return beans.lastWholeHeapCompactedFully();
    }

    /**
     * The census now, naming the {@code top} classes with the most bytes, dated in milliseconds since
     * {@code originNanos} (the watch's start) as of the moment it was asked for: what it counts is the heap then. Its
     * collector's figure is the last whole-heap collection's own: the one heaptap forced right before.
     *
     * @throws HeapBudgetException   it would not fit heaptap's heap budget (nothing was asked of the JVM)
     * @throws IllegalStateException the JVM refused or failed it
     */
    ClassCensus take(long originNanos, int top) {
        long loaded = source.loadedClasses();
        long need = ClassHistogram.heapNeeded(loaded);
        try (HeapBudget.Reservation reserved = budget.reserve(need, "a class census of " + loaded + " loaded classes", "run 'jcmd "
                + ProcessHandle.current().pid() + " GC.class_histogram' instead: it writes the census outside this JVM's heap", false)) {
            long began = System.nanoTime();
            String text;
            try {
                text = source.histogram();
            } catch (Exception e) {
                throw new IllegalStateException("the JVM refused the class census (GC.class_histogram -all): " + e, e);
            } catch (OutOfMemoryError e) {
                throw new IllegalStateException("this JVM ran out of heap while heaptap read a class census of " + loaded + " classes");
            }
            long pauseMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            long atMillis = TimeUnit.NANOSECONDS.toMillis(began - originNanos);
            if (text == null) {
                throw new IllegalStateException("the JVM returned no class census");
            }
            HeapSizing heap = beans.heap();
            long after = beans.heapAfterWholeHeapCollection();
            return ClassHistogram.parse(text, top, atMillis, after >= 0 ? after : heap.usedBytes(), Math.max(0, heap.maxBytes()),
                    pauseMillis);
        }
    }
}
