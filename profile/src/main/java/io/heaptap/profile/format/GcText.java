package io.heaptap.profile.format;

import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.HumanUnits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The GC cost in words, the same in every format that has room for text (the table, pprof
 * comments, the web page, the MBean and the CLI's status).
 */
public final class GcText {
    public static final String NO_COLLECTION = "no collection during the capture";

    private GcText() {
    }

    /** "collector: G1; heap: max 256.0 MiB, committed 64.0 MiB, used 20.1 MiB, initial 16.0 MiB". */
    public static String header(GcCost gc) {
        HeapSizing h = gc.heap();
        List<String> parts = new ArrayList<>();
        addSize(parts, "max", h.maxBytes());
        addSize(parts, "committed", h.committedBytes());
        addSize(parts, "used", h.usedBytes());
        addSize(parts, "initial", h.initialBytes());
        return "collector: " + gc.collector() + "; heap: " + (parts.isEmpty() ? "unknown" : String.join(", ", parts));
    }

    /** "412 collections (G1 Young Generation 410, G1 Old Generation 2), pauses 1.2s = 12.0% of 10.0s" or the none line. */
    public static String collections(GcCost gc) {
        if (gc.collections() == 0 && gc.pauseMillis() == 0) {
            return gc.collectors().isEmpty() && gc.collector().equals("unknown") ? "collections: unknown" : NO_COLLECTION;
        }
        List<String> rows = new ArrayList<>();
        for (CollectorCost c : gc.collectors()) {
            if (c.collections() > 0) {
                rows.add(String.format(Locale.ROOT, "%s %,d%s", c.name(), c.collections(),
                        c.kind() == CollectorCost.Kind.CYCLES ? " (" + millis(c.timeMillis()) + " concurrent)" : ""));
            }
        }
        return String.format(Locale.ROOT, "%,d collection%s (%s), pauses %s = %.1f%% of %s", gc.collections(),
                gc.collections() == 1 ? "" : "s", String.join(", ", rows), millis(gc.pauseMillis()), 100 * gc.pauseShare(),
                HumanUnits.formatDuration(Duration.ofNanos(gc.windowNanos())));
    }

    /** Heap used around collections, or empty when no collection's notification was seen. */
    public static String heapAround(GcCost gc) {
        HeapAroundGc h = gc.heapAround();
        if (h.collections() == 0) {
            return "";
        }
        String template = gc.heapReadAroundCycles()
                ? "heap used at the start -> end of a concurrent cycle: %s -> %s on average, at most %s at an end "
                        + "(the application allocates during a cycle: the gap understates what a cycle freed)"
                : "heap used before -> after a collection: %s -> %s on average, at most %s after";
        return String.format(Locale.ROOT, template,
                HumanUnits.formatBytes(h.meanBeforeBytes()), HumanUnits.formatBytes(h.meanAfterBytes()),
                HumanUnits.formatBytes(h.maxAfterBytes()));
    }

    /** "GC CPU: 3.2s of 8.4s process CPU = 38.1% (0.32 cores; 4 threads: GC Thread#, G1 Conc#)". */
    public static String cpu(GcCost gc) {
        GcCpu c = gc.cpu();
        if (!c.available()) {
            return "GC CPU: unavailable (" + c.unavailableReason() + ")";
        }
        return String.format(Locale.ROOT, "GC CPU: %s of %s process CPU = %.1f%% (%.2f cores; %d thread%s: %s)%s",
                nanos(c.gcThreadNanos()), nanos(c.processNanos()), 100 * c.share(), gc.gcCores(), c.gcThreads(),
                c.gcThreads() == 1 ? "" : "s", String.join(", ", c.threadNames()), c.note() == null ? "" : "; " + c.note());
    }

    /** "allocation rate: 1.2 GiB/s (estimate, from the samples)". */
    public static String allocationRate(double bytesPerSecond) {
        return "allocation rate: " + HumanUnits.formatBytes(bytesPerSecond) + "/s (estimate, from the samples)";
    }

    /** The whole GC section, one line each, without the header. */
    public static List<String> lines(GcCost gc, double allocationRate) {
        List<String> lines = new ArrayList<>();
        lines.add(collections(gc));
        String heap = heapAround(gc);
        if (!heap.isEmpty()) {
            lines.add(heap);
        }
        lines.add(cpu(gc));
        lines.add(allocationRate(allocationRate));
        return lines;
    }

    private static void addSize(List<String> parts, String what, long bytes) {
        if (bytes >= 0) {
            parts.add(what + " " + HumanUnits.formatBytes(bytes));
        }
    }

    private static String millis(long millis) {
        return HumanUnits.formatDuration(Duration.ofMillis(millis));
    }

    private static String nanos(long nanos) {
        return HumanUnits.formatDuration(Duration.ofNanos(nanos));
    }
}
