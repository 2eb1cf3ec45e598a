package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A target with many application threads, each parked {@link #DEPTH} frames deep with a few object
 * locals per frame (the roots a heap walk enumerates), and a watchdog that measures how long the
 * application was stopped: it sleeps 1 ms in a loop and keeps the longest gap between two wake-ups.
 * The first argument is the thread count ("ready" follows once every thread is parked), the optional
 * second the depth (default {@link #DEPTH}). Commands:
 * "fill" holds {@link StaticHolder#COUNT} objects in a static list ("filled"); "gap" prints "gap N"
 * (the longest stall in microseconds since the last "gap") and starts a new measurement.
 */
public final class ManyThreads {
    public static final int DEPTH = 48;

    static final List<Object> LIST = new ArrayList<>();
    static final AtomicLong MAX_GAP_NANOS = new AtomicLong();

    /** The held object. */
    public static final class Held {
        final long id;

        Held(long id) {
            this.id = id;
        }
    }

    private ManyThreads() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        int depth = args.length > 1 ? Integer.parseInt(args[1]) : DEPTH;
        CountDownLatch parked = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> descend(depth, new Object(), parked), "app-" + i);
            t.setDaemon(true);
            t.start();
        }
        parked.await();
        Thread watchdog = new Thread(ManyThreads::watch, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        Commands.serve(command -> {
            switch (command) {
                case "fill" -> {
                    for (int i = 0; i < StaticHolder.COUNT; i++) {
                        LIST.add(new Held(i));
                    }
                    System.out.println("filled");
                }
                case "gap" -> System.out.println("gap " + MAX_GAP_NANOS.getAndSet(0) / 1000);
                default -> System.out.println("unknown " + command);
            }
        });
    }

    static void watch() {
        long last = System.nanoTime();
        while (true) {
            LockSupport.parkNanos(1_000_000);
            long now = System.nanoTime();
            MAX_GAP_NANOS.accumulateAndGet(now - last, Math::max);
            last = now;
        }
    }

    // A frame with object locals (each one a stack root the walk reports) and one more below it.
    static int descend(int depth, Object held, CountDownLatch parked) {
        Object a = new Object();
        Object b = new int[] {depth};
        if (depth == 0) {
            parked.countDown();
            while (true) {
                LockSupport.park();
            }
        }
        return descend(depth - 1, a, parked) + (b.hashCode() & 1) + (held.hashCode() & 1);
    }
}
