package io.heaptap.it.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * The heap in use as the last collection left it, summed over the heap's pools. Not the heap in use
 * now: a TLAB that another thread takes after the collection counts as used in full, and swung a unit
 * test's reading of the same kind by half a megabyte.
 */
final class HeapAfterGc {
    private HeapAfterGc() {
    }

    static long used() {
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (pool.getType() == MemoryType.HEAP && afterGc != null) {
                used += afterGc.getUsed();
            }
        }
        return used;
    }
}
