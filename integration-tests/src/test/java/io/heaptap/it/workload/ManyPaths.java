package io.heaptap.it.workload;

import io.heaptap.testing.CallPaths;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * An application with a big profile in a small heap: worker threads allocate through 2^16 distinct
 * call paths ({@link CallPaths}: a walk of 16 levels, each level through one of two methods), so a capture at a small
 * interval holds about 65k distinct stacks, while the application keeps a live set of its own
 * (first argument, MiB; default 24). A second argument changes the levels (17: 2^17 paths, twice the
 * default stack table).
 *
 * <p>It proves its own health: every worker catches OutOfMemoryError, and the command {@code check}
 * prints {@code check progress=<min rounds of a worker since the last check> oom=<errors seen>}.
 *
 * <p>It measures what others cost its heap: {@code window} starts a window, {@code measure} ends it
 * and prints {@code measure afterGc=<most heap in use right after a collection> others=<bytes
 * allocated by threads other than its workers>}. The first is what stayed alive (the application's
 * live set plus anything another thread held across a collection), the second an upper bound of
 * what those threads held at once.
 */
public final class ManyPaths {
    static volatile int levels = 16;
    static final int WORKERS = 2;
    static final AtomicLongArray ROUNDS = new AtomicLongArray(WORKERS);
    static final AtomicBoolean OOM = new AtomicBoolean();
    static volatile String oomWhere = "";

    private ManyPaths() {
    }

    public static void main(String[] args) throws Exception {
        int liveMiB = args.length > 0 ? Integer.parseInt(args[0]) : 24;
        levels = args.length > 1 ? Integer.parseInt(args[1]) : levels;
        byte[][] kept = new byte[liveMiB * 16][];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = new byte[64 * 1024];
        }
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            Thread t = new Thread(() -> work(worker, kept), "many-paths-" + w);
            t.setDaemon(true);
            t.start();
        }
        long[] seen = new long[WORKERS];
        HeapWindow window = new HeapWindow();
        Commands.serve(c -> {
            if (c.equals("window")) {
                window.start();
                System.out.println("window started");
            }
            if (c.equals("measure")) {
                System.out.println("measure afterGc=" + window.maxAfterGc() + " others=" + window.othersAllocated());
            }
            if (c.equals("check")) {
                long min = Long.MAX_VALUE;
                for (int w = 0; w < WORKERS; w++) {
                    long now = ROUNDS.get(w);
                    min = Math.min(min, now - seen[w]);
                    seen[w] = now;
                }
                System.out.println("check progress=" + min + " oom=" + (OOM.get() ? "yes" + oomWhere : "no"));
                System.out.flush();
            }
        });
    }

    static void work(int worker, byte[][] kept) {
        int slot = worker;
        while (true) {
            try {
                CallPaths.everyPath(levels, 1, 48);
                kept[slot] = new byte[64 * 1024];  // the live set turns over slowly
                slot = (slot + WORKERS) % kept.length;
                ROUNDS.incrementAndGet(worker);
            } catch (OutOfMemoryError e) {
                OOM.set(true);
                oomWhere = " in " + Thread.currentThread().getName();
            }
        }
    }

    /** The heap in use after collections, and other threads' allocations, over a window. */
    static final class HeapWindow {
        private final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        private final java.util.Map<Long, Long> first = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Map<Long, Long> last = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Map<Long, String> names = new java.util.concurrent.ConcurrentHashMap<>();
        private volatile long maxAfterGc;

        HeapWindow() {
            Thread sampler = new Thread(() -> {
                while (true) {
                    poll();
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "heap-window");
            sampler.setDaemon(true);
            sampler.start();
        }

        synchronized void start() {
            first.clear();
            last.clear();
            maxAfterGc = 0;
            poll();
        }

        private synchronized void poll() {
            maxAfterGc = Math.max(maxAfterGc, HeapAfterGc.used());
            boolean starting = last.isEmpty();
            for (long id : threads.getAllThreadIds()) {
                if (!names.containsKey(id)) {
                    java.lang.management.ThreadInfo info = threads.getThreadInfo(id);
                    names.put(id, info == null ? "" : info.getThreadName());
                }
                String name = names.get(id);
                if (name.startsWith("many-paths-") || name.equals("heap-window")) {
                    continue;
                }
                long bytes = threads.getThreadAllocatedBytes(id);
                if (bytes >= 0) {
                    first.putIfAbsent(id, starting ? bytes : 0);  // a thread born in the window counts from 0
                    last.put(id, bytes);  // a thread that ends keeps its last count here
                }
            }
        }

        long maxAfterGc() {
            poll();
            return maxAfterGc;
        }

        long othersAllocated() {
            poll();
            long sum = 0;
            for (var e : last.entrySet()) {
                sum += e.getValue() - first.getOrDefault(e.getKey(), e.getValue());
            }
            return sum;
        }
    }
}
