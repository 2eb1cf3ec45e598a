package io.heaptap.bench;

import com.sun.management.GarbageCollectionNotificationInfo;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The shape issue #33 measured live tracking on: a live set near half the heap (-Dbench.live, a share of
 * the maximum heap) of 1, 16 and 256 KiB arrays, 1% of it replaced every second, and two threads
 * allocating garbage flat out. "footprint" measures one window (-Dbench.window ms): the collectors'
 * cycle counts, the heap in use after each collection or cycle (mean, from the JDK's GC notifications), and the
 * garbage threads' operations; it also prints the JVM's uptime at both ends, so the bench can read
 * the allocation stalls of that window from the GC log.
 */
public final class FootprintTarget {
    static final LongAdder OPS = new LongAdder();
    static final int[] SIZES = {1024, 16 * 1024, 256 * 1024};
    static Object[] live;
    static volatile Object sink;
    private static final Object WINDOW = new Object();
    private static boolean open;
    private static long heapAfterSum;
    private static long heapAfterCount;

    private FootprintTarget() {
    }

    public static void main(String[] args) throws Exception {
        long target = (long) (Runtime.getRuntime().maxMemory() * Double.parseDouble(System.getProperty("bench.live", "0.45")));
        List<Object> built = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; bytes < target; i++) {
            int size = SIZES[i % SIZES.length];
            built.add(new byte[size]);
            bytes += size + 16;
        }
        live = built.toArray();
        built = null;
        listenToCollections();
        Thread replacer = new Thread(FootprintTarget::replace, "replacer");
        replacer.setDaemon(true);
        replacer.start();
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(FootprintTarget::garbage, "garbage-" + i);
            t.setDaemon(true);
            t.start();
        }
        AllocationHeavyTarget.Protocol.serve(OPS, Map.of("footprint", FootprintTarget::window));
    }

    /** 1% of the live set a second, in ten steps, each array replaced by a new one of its size. */
    static void replace() {
        int perStep = Math.max(1, live.length / 1000);
        while (true) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < perStep; i++) {
                int slot = random.nextInt(live.length);
                live[slot] = new byte[SIZES[slot % SIZES.length]];
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    static void garbage() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (true) {
            sink = new byte[64 + random.nextInt(4096)];
            OPS.increment();
        }
    }

    private static void listenToCollections() {
        Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().endsWith("Pauses")) {
                continue;  // ZGC's and Shenandoah's pauses end mid-cycle; their cycles' beans report the heap after
            }
            ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
                if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                    return;
                }
                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                long after = 0;
                for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                    if (heapPools.contains(pool.getKey())) {
                        after += pool.getValue().getUsed();
                    }
                }
                synchronized (WINDOW) {
                    if (open) {
                        heapAfterSum += after;
                        heapAfterCount++;
                    }
                }
            }, null, null);
        }
    }

    static void window() {
        long millis = Long.getLong("bench.window", 20_000);
        Map<String, Long> counts = counts();
        long ops = OPS.sum();
        long startUptime = ManagementFactory.getRuntimeMXBean().getUptime();
        synchronized (WINDOW) {
            open = true;
            heapAfterSum = 0;
            heapAfterCount = 0;
        }
        long t0 = System.nanoTime();
        try {
            Thread.sleep(millis);  // the measuring window itself
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long endUptime = ManagementFactory.getRuntimeMXBean().getUptime();
        long meanAfter;
        synchronized (WINDOW) {
            open = false;
            meanAfter = heapAfterCount == 0 ? -1 : heapAfterSum / heapAfterCount;
        }
        StringBuilder gcs = new StringBuilder();
        counts().forEach((name, count) -> gcs.append(gcs.length() == 0 ? "" : ",").append(name.replace(' ', '_')).append(':')
                .append(count - counts.getOrDefault(name, 0L)));
        System.out.println("footprint ops " + (OPS.sum() - ops) / seconds + " heapafter " + meanAfter + " gcs " + gcs
                + " uptime " + startUptime + " " + endUptime);
    }

    private static Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            counts.put(gc.getName(), gc.getCollectionCount());
        }
        return counts;
    }
}
