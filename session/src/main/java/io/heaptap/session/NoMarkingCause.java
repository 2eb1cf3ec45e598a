package io.heaptap.session;

import com.sun.management.HotSpotDiagnosticMXBean;

import io.heaptap.profile.HumanUnits;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Locale;

/**
 * Why a leak watch without {@code --gc} saw no whole-heap marking, in words, and the one command that would
 * decide, with the pause it would cost on this heap. G1 starts a concurrent marking only once its old
 * generation's occupancy passes the initiating threshold (and undoes a cycle a humongous allocation began
 * when occupancy is below it again); Parallel and Serial collect the old generation only when it is full.
 * So the cause is the old generation's occupancy against what would start a marking.
 */
final class NoMarkingCause {
    /**
     * Milliseconds of pause per GiB in use for a {@code --gc} snapshot: the forced collection and the census.
     * Measured on 2 shared cores (G1, a 1 GiB live set): 313-480 ms of collection and 280-330 ms of census;
     * more cores pause less.
     */
    static final long PAUSE_MILLIS_PER_GIB = 800;

    /** What the JVM says about its old generation and G1's threshold (-1 where unknown). */
    record Facts(List<String> beans, long oldUsedBytes, long oldMaxBytes, long heapMaxBytes, long heapInUseBytes,
                 int initiatingPercent, boolean adaptive) {
    }

    private NoMarkingCause() {
    }

    /** The cause and the deciding command for a watch of {@code pid} that saw {@code collections} collections and no marking. */
    static String explain(Facts f, long collections, long pid, long durationMillis, long everyMillis) {
        String cause;
        boolean g1 = f.beans().contains("G1 Old Generation");
        boolean stwOld = f.beans().contains("PS MarkSweep") || f.beans().contains("MarkSweepCompact");
        String occupancy = f.oldUsedBytes() < 0 || f.heapMaxBytes() <= 0 ? "" : String.format(Locale.ROOT, "its old generation holds %s,"
                + " %.0f%% of the heap's maximum %s", HumanUnits.formatBytes(f.oldUsedBytes()), 100.0 * f.oldUsedBytes() / f.heapMaxBytes(),
                HumanUnits.formatBytes(f.heapMaxBytes()));
        if (g1) {
            cause = String.format(Locale.ROOT, "G1 completed no concurrent marking in the watch (%d collections, none of the whole heap)%s%s",
                    collections, occupancy.isEmpty() ? "" : ": " + occupancy,
                    f.initiatingPercent() < 0 ? "" : String.format(Locale.ROOT, ", and G1 marks only above its initiating occupancy"
                            + " (InitiatingHeapOccupancyPercent=%d%s); a cycle a humongous allocation starts below it is undone,"
                            + " proving nothing", f.initiatingPercent(), f.adaptive() ? ", adapted by G1 to the allocation rate" : ""));
        } else if (stwOld) {
            String oldShare = f.oldUsedBytes() < 0 || f.oldMaxBytes() <= 0 ? "" : String.format(Locale.ROOT,
                    ": it holds %s of %s (%.0f%%)", HumanUnits.formatBytes(f.oldUsedBytes()), HumanUnits.formatBytes(f.oldMaxBytes()),
                    100.0 * f.oldUsedBytes() / f.oldMaxBytes());
            cause = String.format(Locale.ROOT, "no full collection in the watch (%d collections, all young): the collector examines the"
                    + " old generation only when it fills%s", collections, oldShare);
        } else {
            cause = String.format(Locale.ROOT, "no whole-heap marking in the watch (%d collections)", collections);
        }
        long inUse = Math.max(0, f.heapInUseBytes());
        long pause = Math.max(10, Math.round((double) inUse / (1L << 30) * PAUSE_MILLIS_PER_GIB));
        return cause + String.format(Locale.ROOT, ". To decide: heaptap leaks %d --gc --duration %s --every %s; each snapshot then pauses"
                        + " the application about %s (a full collection and a class census of the %s in use, at about %d ms per GiB"
                        + " measured on 2 cores)", pid, flag(durationMillis), flag(everyMillis), HumanUnits.formatDuration(java.time.Duration.ofMillis(pause)),
                HumanUnits.formatBytes(inUse), PAUSE_MILLIS_PER_GIB);
    }

    private static String flag(long millis) {
        return millis % 60_000 == 0 ? millis / 60_000 + "m" : millis % 1_000 == 0 ? millis / 1_000 + "s" : millis + "ms";
    }

    /** This JVM's facts, read now (a few MXBean reads). */
    static Facts read(GcBeans beans) {
        long oldUsed = -1;
        long oldMax = -1;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            String name = pool.getName();
            if (pool.getType() == MemoryType.HEAP && (name.contains("Old Gen") || name.contains("Tenured Gen"))) {
                MemoryUsage after = pool.getCollectionUsage();
                MemoryUsage now = pool.getUsage();
                oldUsed = after != null && after.getUsed() > 0 ? after.getUsed() : now.getUsed();
                oldMax = now.getMax();
            }
        }
        int ihop = -1;
        boolean adaptive = false;
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            ihop = Integer.parseInt(hotspot.getVMOption("InitiatingHeapOccupancyPercent").getValue());
            adaptive = "true".equals(hotspot.getVMOption("G1UseAdaptiveIHOP").getValue());
        } catch (RuntimeException notHotSpot) {
            // an unknown threshold is left out of the words
        }
        long after = beans.heapAfterGc();
        return new Facts(beans.names(), oldUsed, oldMax, beans.heap().maxBytes(), after >= 0 ? after : beans.heap().usedBytes(), ihop,
                adaptive);
    }
}
