package io.heaptap.session;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * The live table's large-object stratum for this JVM. On G1, objects of at least half a region are
 * humongous, and a weak reference to one keeps G1 from reclaiming it eagerly; those samples get a
 * small budget of their own, so the table can hold back at most about 1% of the heap as humongous
 * garbage. Not 5%: on a target churning 1 MiB arrays in a 1 GiB heap (JDK 25), 51 held-back regions
 * pushed the old generation over G1's initiating occupancy at half the young collections, each then a
 * concurrent start (every class loader's data scanned, a longer pause) and an undone cycle; at 12 or 24
 * regions none was (bench/RESULTS.md, humongous churn). Generational ZGC's minor
 * collections leave JNI weak references alone, so any tracked young object outlives them until a major
 * collection: objects of 2 MiB and more get a budget there too (about 5% of the heap at 4 MiB each; not
 * measured against ZGC's own triggers). Other collectors: no stratum.
 *
 * @param threshold size from which a sample is large, 0 for none
 * @param budget    tracked large objects at most
 */
record LargeObjects(long threshold, int budget) {
    static final LargeObjects NONE = new LargeObjects(0, 2);

    /** @param gcBeans the JVM's collectors (whose beans are looked up once per JVM) */
    static LargeObjects forThisJvm(GcBeans gcBeans) {
        try {
            if (gcBeans.names().contains("ZGC Minor Cycles")) {  // generational ZGC
                long budget = Runtime.getRuntime().maxMemory() / 20 / (4L << 20);
                return new LargeObjects(2L << 20, (int) Math.max(4, Math.min(1024, budget)));
            }
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (!"true".equals(hotspot.getVMOption("UseG1GC").getValue())) {
                return NONE;
            }
            long region = Long.parseLong(hotspot.getVMOption("G1HeapRegionSize").getValue());
            long budget = Runtime.getRuntime().maxMemory() / 100 / Math.max(1, region);
            return new LargeObjects(region / 2, (int) Math.max(4, Math.min(1024, budget)));
        } catch (RuntimeException e) {
            return NONE;  // not HotSpot, or the options are not readable: no stratum
        }
    }
}
