package io.heaptap.it.workload;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Many threads (first argument, default 32), each keeping a ring of 5,000 arrays of random sizes
 * (16 B to 1 KiB, ~2.6 MB per thread) whose slots it replaces slowly, and throwing away much
 * more: a live set with turnover (objects live for seconds) and steady garbage, so the live table
 * is thinned and cleaned all the time.
 */
public final class Stress {
    static volatile Object sink;

    private Stress() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(Stress::work, "stress-" + t);
            worker.setDaemon(true);
            worker.start();
        }
        Commands.serve(c -> { });
    }

    static void work() {
        Object[] ring = new Object[5_000];
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < ring.length; i++) {
            ring[i] = keep(16 + random.nextInt(1_008));
        }
        for (long n = 0; ; n++) {
            if ((n & 1023) == 0) {
                ring[random.nextInt(ring.length)] = keep(16 + random.nextInt(1_008));
            }
            sink = new byte[64 + random.nextInt(512)];
        }
    }

    static byte[] keep(int size) {
        return new byte[size];
    }
}
