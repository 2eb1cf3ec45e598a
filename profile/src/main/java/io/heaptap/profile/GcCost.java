package io.heaptap.profile;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the garbage collector cost during a capture, measured inside the target: the reason an
 * allocation profile matters at all. Counts and times are differences of the GC MXBeans'
 * counters between the start of the capture and its end (or now while recording).
 *
 * @param collector   the collector's name ("G1", "Parallel", "ZGC", ...)
 * @param heap        heap sizing at the end of the window
 * @param windowNanos the window measured: the capture so far, or all of it
 * @param collectors  per GC MXBean
 * @param heapAround  heap used before and after the collections
 * @param cpu         GC threads' CPU time against the process's
 */
public record GcCost(String collector, HeapSizing heap, long windowNanos, List<CollectorCost> collectors,
                     HeapAroundGc heapAround, GcCpu cpu) {
    /** GC threads using at least this share of the process's CPU is worth a line of its own. */
    public static final double CPU_SHARE_ALARM = 0.20;
    /** The application paused at least this share of the wall-clock time is worth a line too. */
    public static final double PAUSE_SHARE_ALARM = 0.05;
    /**
     * Below this many cores' worth of GC CPU there is nothing to chase, whatever the share: an
     * idle JVM spends a large share of almost nothing on GC housekeeping (ZGC's director thread).
     */
    public static final double MIN_ALARM_CORES = 0.05;

    public GcCost {
        collectors = List.copyOf(collectors);
    }

    /**
     * The cost between an earlier measurement of the same capture and this one (for pprof's
     * {@code ?seconds=N} windows). Counters are differences; the heap figures around collections
     * cannot be split by time and stay those of the whole capture.
     */
    public GcCost since(GcCost earlier) {
        List<CollectorCost> window = new java.util.ArrayList<>();
        for (CollectorCost c : collectors) {
            CollectorCost b = earlier.collectors.stream().filter(e -> e.name().equals(c.name())).findFirst().orElse(null);
            window.add(b == null ? c : new CollectorCost(c.name(), c.kind(), Math.max(0, c.collections() - b.collections()),
                    Math.max(0, c.timeMillis() - b.timeMillis())));
        }
        GcCpu windowCpu = cpu.available() && earlier.cpu.available()
                ? new GcCpu(true, null, Math.max(0, cpu.gcThreadNanos() - earlier.cpu.gcThreadNanos()),
                        Math.max(0, cpu.processNanos() - earlier.cpu.processNanos()), cpu.gcThreads(), cpu.threadNames(), cpu.note())
                : cpu;
        return new GcCost(collector, heap, Math.max(0, windowNanos - earlier.windowNanos), window, heapAround, windowCpu);
    }

    /** For a profile whose GC cost was not measured (a JVM without GC MXBeans, or an error). */
    public static GcCost unknown(String reason) {
        return new GcCost("unknown", HeapSizing.UNKNOWN, 0, List.of(), HeapAroundGc.NONE, GcCpu.unavailable(reason));
    }

    /**
     * Whether the heap was read around concurrent cycles (ZGC, Shenandoah) rather than pauses. A
     * cycle's "before" is its start and its "after" its end, and the application allocates in
     * between: on a full heap the level after can be as high as before, though the cycle freed much.
     */
    public boolean heapReadAroundCycles() {
        return collectors.stream().anyMatch(c -> c.kind() == CollectorCost.Kind.CYCLES);
    }

    /** Collections in the window: collections and concurrent cycles, not the pauses inside cycles. */
    public long collections() {
        return collectors.stream().filter(c -> c.kind().countsCollections()).mapToLong(CollectorCost::collections).sum();
    }

    /** Stop-the-world pause time in the window. */
    public long pauseMillis() {
        return collectors.stream().filter(c -> c.kind().isPauseTime()).mapToLong(CollectorCost::timeMillis).sum();
    }

    /** Share of the window's wall-clock time the application was paused for GC, 0..1. */
    public double pauseShare() {
        return windowNanos <= 0 ? 0 : Math.min(1, pauseMillis() * 1e6 / windowNanos);
    }

    /** Cores' worth of CPU the GC threads used on average over the window; -1 when unavailable. */
    public double gcCores() {
        return !cpu.available() || windowNanos <= 0 ? -1 : (double) cpu.gcThreadNanos() / windowNanos;
    }

    /** The one line a report prints when GC is expensive enough to chase allocations, or empty. */
    public Optional<String> alarm() {
        boolean cpuHigh = cpu.available() && cpu.share() >= CPU_SHARE_ALARM && gcCores() >= MIN_ALARM_CORES;
        boolean pausesHigh = pauseShare() >= PAUSE_SHARE_ALARM;
        if (!cpuHigh && !pausesHigh) {
            return Optional.empty();
        }
        String seconds = String.format(Locale.ROOT, "%.1f s", windowNanos / 1e9);
        if (cpuHigh && pausesHigh) {
            return Optional.of(String.format(Locale.ROOT,
                    "GC used %.0f%% of this JVM's CPU and paused it %.0f%% of the time over the last %s: allocation is worth chasing",
                    100 * cpu.share(), 100 * pauseShare(), seconds));
        }
        if (cpuHigh) {
            return Optional.of(String.format(Locale.ROOT,
                    "GC used %.0f%% of this JVM's CPU over the last %s: allocation is worth chasing", 100 * cpu.share(), seconds));
        }
        return Optional.of(String.format(Locale.ROOT,
                "GC paused this JVM %.0f%% of the time over the last %s: allocation is worth chasing", 100 * pauseShare(), seconds));
    }
}
