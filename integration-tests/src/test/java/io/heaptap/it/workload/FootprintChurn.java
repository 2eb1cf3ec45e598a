package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * What weak references cost a heap: a live set of about 100 MiB (64 KiB arrays, built before any capture)
 * and two threads allocating garbage flat out, arrays of 16 to 256 KiB that die at once. "pause" and
 * "resume" stop and restart the garbage ("paused", "resumed" follow); "retain" keeps a known set,
 * {@link #KEPT_COUNT} arrays of exactly 32 KiB from {@code keep} ("retained" follows).
 */
public final class FootprintChurn {
    public static final int BALLAST_COUNT = 1_600;
    public static final int KEPT_COUNT = 768;
    public static final int KEPT_BYTES = 32 * 1024;  // 16-byte header included (64-bit HotSpot, compressed class pointers)
    static final List<byte[]> BALLAST = new ArrayList<>();
    static final List<byte[]> KEPT = new ArrayList<>();
    static volatile boolean paused;
    static volatile Object sink;

    private FootprintChurn() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < BALLAST_COUNT; i++) {
            BALLAST.add(new byte[64 * 1024 - 16]);
        }
        for (int t = 1; t <= 2; t++) {
            Thread churn = new Thread(FootprintChurn::churn, "churn-" + t);
            churn.setDaemon(true);
            churn.start();
        }
        Commands.serve(command -> {
            switch (command) {
                case "pause" -> {
                    paused = true;
                    System.out.println("paused");
                }
                case "resume" -> {
                    paused = false;
                    System.out.println("resumed");
                }
                case "retain" -> {
                    keep();
                    System.out.println("retained");
                }
                default -> System.out.println("unknown " + command);
            }
        });
    }

    static void keep() {
        for (int i = 0; i < KEPT_COUNT; i++) {
            KEPT.add(new byte[KEPT_BYTES - 16]);
        }
    }

    static void churn() {
        SplittableRandom random = new SplittableRandom();
        while (true) {
            if (paused) {
                LockSupport.parkNanos(1_000_000);  // idle, not a synchronisation: the test waits on "paused"
                continue;
            }
            sink = new byte[((16 << 10) << random.nextInt(5)) - 16];
        }
    }
}
