package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * A target that keeps known amounts of memory while producing heavy garbage. A thread churns
 * short-lived arrays from start to exit. On "build" three sets are built and kept: 80 MiB each of
 * small (64 B), medium (1 KiB) and large (16 KiB) arrays; "built" follows. Sizes assume a 64-bit
 * HotSpot with compressed class pointers (16-byte array header).
 */
public final class RetainedSets {
    public static final long SET_BYTES = 80L << 20;
    public static final int SMALL_LENGTH = 48;        // 64 bytes
    public static final int MEDIUM_LENGTH = 1_008;    // 1 KiB
    public static final int LARGE_LENGTH = 16_368;    // 16 KiB

    static final List<byte[]> SMALL = new ArrayList<>();
    static final List<byte[]> MEDIUM = new ArrayList<>();
    static final List<byte[]> LARGE = new ArrayList<>();
    static volatile Object sink;

    private RetainedSets() {
    }

    public static void main(String[] args) throws Exception {
        Thread churn = new Thread(RetainedSets::churn, "churn");
        churn.setDaemon(true);
        churn.start();
        Commands.serve(command -> {
            if (command.equals("build")) {
                keepSmall();
                keepMedium();
                keepLarge();
                System.out.println("built");
            }
        });
    }

    static long count(int length) {
        return SET_BYTES / (16 + length);
    }

    static void keepSmall() {
        for (long i = count(SMALL_LENGTH); i > 0; i--) {
            SMALL.add(new byte[SMALL_LENGTH]);
        }
    }

    static void keepMedium() {
        for (long i = count(MEDIUM_LENGTH); i > 0; i--) {
            MEDIUM.add(new byte[MEDIUM_LENGTH]);
        }
    }

    static void keepLarge() {
        for (long i = count(LARGE_LENGTH); i > 0; i--) {
            LARGE.add(new byte[LARGE_LENGTH]);
        }
    }

    /** Heavy garbage: arrays that die at once. */
    static void churn() {
        while (true) {
            for (int i = 0; i < 64; i++) {
                sink = new byte[1_024];
            }
            sink = new byte[64 * 1_024];
        }
    }
}
