package io.heaptap.it.workload;

import java.util.concurrent.locks.LockSupport;

/**
 * Idle until "turn"; then one thread replaces, oldest first, a window of 15,000 arrays of 4 KiB (about
 * 60 MiB), drops 1 KiB of garbage between replacements at some 300 MB/s, and "turning" is printed. The
 * window's arrays live long enough to reach the old generation and die there, so in a 256 MiB heap G1
 * starts a concurrent cycle several times a second (occupancy above its initiating threshold), at a
 * pace its marking keeps up with: no full collection.
 */
public final class OldGenTurnover {
    static final int WINDOW = 15_000;
    static final byte[][] KEPT = new byte[WINDOW][];
    static volatile Object sink;

    private OldGenTurnover() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            if (command.equals("turn")) {
                Thread worker = new Thread(OldGenTurnover::turn, "turn");
                worker.setDaemon(true);
                worker.start();
                System.out.println("turning");
            }
        });
    }

    static void turn() {
        for (long n = 0; ; n++) {
            KEPT[(int) (n % WINDOW)] = new byte[4096];
            sink = new byte[1024];
            if (n % 64 == 63) {
                LockSupport.parkNanos(1_000_000);  // a pace concurrent marking keeps up with: no full collections
            }
        }
    }
}
