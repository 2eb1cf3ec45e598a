package io.heaptap.it.workload;

import java.util.concurrent.CountDownLatch;

/**
 * A target whose threads are all blocked: four workers wait to enter a monitor that a holder
 * keeps until "release", and the main thread waits on stdin. Released, each worker allocates
 * 8 MiB in 1 KiB arrays and the last prints "allocated".
 */
public final class AllBlocked {
    static final Object LOCK = new Object();
    static final int WORKERS = 4;
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final CountDownLatch DONE = new CountDownLatch(WORKERS);
    static volatile Object sink;

    private AllBlocked() {
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (LOCK) {
                held.countDown();
                awaitQuietly(RELEASE);
            }
        }, "holder");
        holder.start();
        held.await();
        for (int i = 0; i < WORKERS; i++) {
            Thread worker = new Thread(() -> {
                synchronized (LOCK) {
                    for (int n = 0; n < 8 * 1024; n++) {
                        sink = new byte[1024];
                    }
                }
                DONE.countDown();
            }, "blocked-" + i);
            worker.setDaemon(true);
            worker.start();
        }
        Commands.serve(command -> {
            if (command.equals("release")) {
                RELEASE.countDown();
                awaitQuietly(DONE);
                System.out.println("allocated");
            }
        });
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
