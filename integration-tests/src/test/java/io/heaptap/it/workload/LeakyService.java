package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A target with five kinds of memory, each from its own allocation site, for the leak watch:
 * (a) {@link #leakSome}: a slow leak, about 1 MiB/s kept forever; (b) {@link #refillCache}: a
 * 16 MiB cache replaced in full every 2 s; (c) {@link #churn}: heavy short-lived garbage; (d)
 * {@link #churnLarge}: 3 MiB arrays that die at once (humongous on G1 with up to 4 MiB regions);
 * (e) {@link #keepSet}: 48 MiB built once on "keep" ("kept" follows) and held. heaptap sees only
 * objects allocated while it samples, so the test sends "keep" after the watch started. On a large
 * heap, replaced caches and garbage that reached the old generation stay there until a whole-heap
 * marking: the case heaptap's proof of liveness is for.
 */
public final class LeakyService {
    public static final int ARRAY = 1_008;              // 1 KiB with the array header
    public static final int LEAK_PER_TICK = 100;        // every 100 ms: about 1 MiB/s
    public static final int CACHE_ENTRIES = 16 * 1_024; // 16 MiB
    public static final long CACHE_PERIOD_MILLIS = 2_000;
    public static final int KEPT_ENTRIES = 48 * 1_024;  // 48 MiB

    static final List<byte[]> LEAKED = new ArrayList<>(200_000);
    static volatile byte[][] cache = new byte[0][];
    static final List<byte[]> KEPT = new ArrayList<>(KEPT_ENTRIES);
    static volatile Object sink;

    private LeakyService() {
    }

    public static void main(String[] args) throws Exception {
        daemon("leak", () -> every(100, LeakyService::leakSome));
        daemon("cache", () -> every(CACHE_PERIOD_MILLIS, LeakyService::refillCache));
        daemon("churn", LeakyService::churn);
        daemon("churn-large", () -> every(100, LeakyService::churnLarge));
        Commands.serve(command -> {
            if (command.equals("keep")) {
                keepSet();
                System.out.println("kept");
            }
        });
    }

    static void leakSome() {
        synchronized (LEAKED) {
            for (int i = 0; i < LEAK_PER_TICK; i++) {
                LEAKED.add(new byte[ARRAY]);
            }
        }
    }

    static void refillCache() {
        byte[][] fresh = new byte[CACHE_ENTRIES][];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = new byte[ARRAY];
        }
        cache = fresh;
    }

    static void keepSet() {
        for (int i = 0; i < KEPT_ENTRIES; i++) {
            KEPT.add(new byte[ARRAY]);
        }
    }

    /** About 100-200 MB/s of arrays that die at once, paced so it does not take a whole core. */
    static void churn() {
        while (true) {
            for (int i = 0; i < 256; i++) {
                sink = new byte[512];
            }
            LockSupport.parkNanos(500_000);
        }
    }

    /** About 30 MiB/s of 3 MiB arrays, each dropped at once. */
    static void churnLarge() {
        sink = new byte[3 << 20];
    }

    private static void every(long millis, Runnable task) {
        while (true) {
            task.run();
            LockSupport.parkNanos(millis * 1_000_000);
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
