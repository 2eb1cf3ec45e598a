package io.heaptap.session;

import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;


/**
 * Measures what the garbage collector costs over a capture, from inside the target: counts and
 * times from the GC MXBeans' counters (differences between the start and the end of the window),
 * heap used around the collections {@link GcBeans#subscribe} reports (every whole-heap one, and of
 * young ones the last of each poll, weighed as all the poll found), and the CPU time of the GC threads
 * against the process's ({@link GcThreadCpu}). Whatever cannot be measured is reported
 * unavailable; nothing here may fail a capture.
 */
final class GcMonitor {
    /** Attribute reads come in bursts (JConsole, the CLI's progress): measure at most this often. */
    static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final GcBeans beans;
    private final GcThreadCpu threadCpu;
    private final HeapAccumulator heapAround = new HeapAccumulator();
    private GcBeans.Subscription subscription;

    private Baseline baseline;
    /** The CPU times the window's GC share is measured against; null until {@link #readCpuBaseline} ran. */
    private CpuBaseline cpuBaseline;
    private GcCost frozen;
    private GcCost recent;
    private long recentNanos;

    /** What the window's collections are counted against. */
    private record Baseline(long nanos, Map<String, long[]> beans) {
    }

    /** The GC threads' and the process's CPU times when the window's CPU figures began. */
    private record CpuBaseline(GcThreadCpu.Reading threads, long processCpuNanos) {
    }

    GcMonitor(GcBeans beans) {
        this(beans, new GcThreadCpu(GcThreadCpu.SELF_TASKS));
    }

    GcMonitor(GcBeans beans, GcThreadCpu threadCpu) {
        this.beans = beans;
        this.threadCpu = threadCpu;
    }

    /**
     * Opens a new window now. The collections are counted from now; the CPU figures from when
     * {@code later} runs {@link #readCpuBaseline} (or the first measurement, if that comes first).
     * Reading every thread's name in {@code /proc} took 13 ms of an idle JVM with 20 threads and 118 ms
     * with 2,000, on the first capture's path to its answer; the GC threads' share of the CPU is a
     * ratio of two times read together, so it does not need the same start as the counts.
     */
    synchronized void start(Executor later) {
        unsubscribe();
        heapAround.clear();
        frozen = null;
        recent = null;
        cpuBaseline = null;
        try {
            subscription = beans.subscribe(this::record);
            baseline = new Baseline(System.nanoTime(), beanCounters());
        } catch (RuntimeException e) {
            // The capture goes on without GC figures, and its reports say why.
            unsubscribe();
            baseline = null;
            frozen = GcCost.unknown("cannot read the GC MXBeans: " + e);
            return;
        }
        later.execute(this::readCpuBaseline);
    }

    /** The CPU baseline of the open window, unless it has one (a task of an earlier window may run late: harmless). */
    synchronized void readCpuBaseline() {
        if (baseline != null && frozen == null && cpuBaseline == null) {
            cpuBaseline = new CpuBaseline(threadCpu.read(gcThreadFilter()), beans.processCpuNanos());
        }
    }

    /** Closes the window: later reads return the figures of the whole capture. */
    synchronized void stop() {
        if (baseline != null && frozen == null) {
            frozen = measure();
        }
        unsubscribe();
    }

    synchronized void reset() {
        unsubscribe();
        baseline = null;
        cpuBaseline = null;
        frozen = null;
        recent = null;
        heapAround.clear();
    }

    /** The cost over the window so far (or all of it once stopped); null if no window was opened. */
    synchronized GcCost cost() {
        if (frozen != null || baseline == null) {
            return frozen;
        }
        if (recent == null || System.nanoTime() - recentNanos > REFRESH_NANOS) {
            recent = measure();
            recentNanos = System.nanoTime();
        }
        return recent;
    }

    private GcCost measure() {
        try {
            long now = System.nanoTime();
            List<CollectorCost> collectors = new ArrayList<>();
            beanCounters().forEach((name, counters) -> {
                long[] before = baseline.beans().getOrDefault(name, new long[] {0, 0});
                collectors.add(new CollectorCost(name, CollectorCost.Kind.ofBean(name), Math.max(0, counters[0] - before[0]),
                        Math.max(0, counters[1] - before[1])));
            });
            return new GcCost(beans.collectorName(), beans.heap(), now - baseline.nanos(), collectors, heapAround.snapshot(), cpu());
        } catch (RuntimeException | Error e) {
            return GcCost.unknown("cannot read the GC MXBeans: " + e);
        }
    }

    private GcCpu cpu() {
        readCpuBaseline();
        if (cpuBaseline.threads().unavailableReason() != null) {
            return GcCpu.unavailable(cpuBaseline.threads().unavailableReason());
        }
        GcThreadCpu.Reading now = threadCpu.read(gcThreadFilter());
        if (now.unavailableReason() != null) {
            return GcCpu.unavailable(now.unavailableReason());
        }
        long processNow = beans.processCpuNanos();
        if (cpuBaseline.processCpuNanos() < 0 || processNow < 0) {
            return GcCpu.unavailable("the JVM does not report its process CPU time here");
        }
        long gcNanos = 0;
        TreeSet<String> kinds = new TreeSet<>();
        for (Map.Entry<Long, Long> thread : now.cpuNanos().entrySet()) {
            // A GC thread started during the window (HotSpot adds workers on demand) counts from zero.
            long before = cpuBaseline.threads().cpuNanos().getOrDefault(thread.getKey(), 0L);
            gcNanos += Math.max(0, thread.getValue() - before);
            kinds.add(GcThreadCpu.kind(now.names().get(thread.getKey())));
        }
        if (now.cpuNanos().isEmpty()) {
            return GcCpu.unavailable("no GC thread recognised by name for the " + beans.collectorName() + " collector");
        }
        return new GcCpu(true, null, gcNanos, processNow - cpuBaseline.processCpuNanos(), now.cpuNanos().size(),
                List.copyOf(kinds), isSerial() ? "Serial collects in the VM Thread, whose CPU time also covers other VM operations" : null);
    }

    /** Serial has no GC threads of its own: it collects in the VM Thread. */
    private Predicate<String> gcThreadFilter() {
        return isSerial() ? "VM Thread"::equals : GcThreadCpu::isGcThreadName;
    }

    private boolean isSerial() {
        return "Serial".equals(beans.collectorName());
    }

    private Map<String, long[]> beanCounters() {
        Map<String, long[]> counters = new LinkedHashMap<>();
        for (GcBeans.Counters bean : beans.counters()) {
            counters.put(bean.name(), new long[] {Math.max(0, bean.collections()), Math.max(0, bean.millis())});
        }
        return counters;
    }

    private void record(GcBeans.Collection collection) {
        // Pauses inside a concurrent cycle report the heap too; only whole collections are counted.
        if (CollectorCost.Kind.ofBean(collection.gcName()).countsCollections()) {
            heapAround.add(collection.heapUsedBefore(), collection.heapUsedAfter(), collection.stands());
        }
    }

    private void unsubscribe() {
        if (subscription != null) {
            subscription.close();
            subscription = null;
        }
    }

    /** Heap used around collections; written by the notification thread, read by measurements. */
    private static final class HeapAccumulator {
        private long collections;
        private double sumBefore;
        private double sumAfter;
        private long maxAfter;

        /** One collection read, standing for {@code stands} (a young one read among several: weighed as all of them). */
        synchronized void add(long before, long after, long stands) {
            long weight = Math.max(1, stands);
            collections += weight;
            sumBefore += (double) weight * before;
            sumAfter += (double) weight * after;
            maxAfter = Math.max(maxAfter, after);
        }

        synchronized void clear() {
            collections = 0;
            sumBefore = 0;
            sumAfter = 0;
            maxAfter = 0;
        }

        synchronized HeapAroundGc snapshot() {
            return collections == 0 ? HeapAroundGc.NONE
                    : new HeapAroundGc(collections, Math.round(sumBefore / collections), Math.round(sumAfter / collections), maxAfter);
        }
    }
}
