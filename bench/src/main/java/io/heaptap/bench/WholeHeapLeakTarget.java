package io.heaptap.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue #36's scenario, for {@code heaptap leaks PID --duration 2m --every 10s --gc} by hand (bench/RESULTS.md,
 * "The whole heap"): a 1 GiB stable set built before heaptap comes (byte[1008] arrays), a leak of 32-byte
 * {@link LeakEntry} records at exactly 3,200 a second by the wall clock (about 100 KB/s: 6,144,000 bytes a
 * minute, the truth), a cache of 20,000 entries replaced every 3 s, and a thread allocating garbage flat out.
 * Prints "ready PID at EPOCH_MILLIS" once the stable set is built; runs until killed, or until the heap is gone.
 * <p>
 * Optional arguments {@code STABLE_MIB ENTRIES_PER_SECOND CACHE_ENTRIES} change the three sizes: {@code 200 33000 0}
 * with {@code -Xmx512m -XX:+ExitOnOutOfMemoryError} runs out of heap for real in about five minutes, to hold the time
 * to OOM against the moment the JVM fails (bench/RESULTS.md, "Against a real OutOfMemoryError").
 */
public final class WholeHeapLeakTarget {
    /** Entries a second; 12 bytes of header and 20 of fields: 32 bytes with compressed oops. */
    static final int LEAK_PER_SECOND = 3_200;
    static final int STABLE_MIB = 1_024;
    static final int CACHE_ENTRIES = 20_000;

    record LeakEntry(long a, long b, LeakEntry next) {
    }

    static final List<byte[]> STABLE = new ArrayList<>();
    static volatile LeakEntry leaked;
    static volatile Map<Integer, byte[]> cache = new HashMap<>();
    static volatile Object sink;

    private WholeHeapLeakTarget() {
    }

    public static void main(String[] args) throws InterruptedException {
        int stableMib = args.length > 0 ? Integer.parseInt(args[0]) : STABLE_MIB;
        long perSecond = args.length > 1 ? Long.parseLong(args[1]) : LEAK_PER_SECOND;
        int cacheEntries = args.length > 2 ? Integer.parseInt(args[2]) : CACHE_ENTRIES;
        for (int i = 0; i < stableMib * 1_024; i++) {
            STABLE.add(new byte[1_008]);
        }
        System.gc();
        daemon("leak", () -> leak(perSecond));
        if (cacheEntries > 0) {
            daemon("cache", () -> replaceCache(cacheEntries));
        }
        daemon("garbage", () -> {
            Random random = new Random(1);
            while (true) {
                sink = new byte[64 + random.nextInt(4_096)];
            }
        });
        System.out.println("ready " + ProcessHandle.current().pid() + " at " + System.currentTimeMillis());
        Thread.currentThread().join();
    }

    /** Catches up on each tick, so a slow scheduler shifts entries by a tick, never changes the rate. */
    private static void leak(long perSecond) {
        long start = System.nanoTime();
        long added = 0;
        while (true) {
            long due = (System.nanoTime() - start) * perSecond / 1_000_000_000L;
            LeakEntry head = leaked;
            for (; added < due; added++) {
                head = new LeakEntry(added, added, head);
            }
            leaked = head;
            LockSupport.parkNanos(10_000_000);
        }
    }

    private static void replaceCache(int entries) {
        while (true) {
            Map<Integer, byte[]> fresh = new HashMap<>();
            for (int i = 0; i < entries; i++) {
                fresh.put(i, new byte[512]);
            }
            cache = fresh;
            LockSupport.parkNanos(3_000_000_000L);
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
