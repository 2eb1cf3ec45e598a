package io.heaptap.it.workload;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Idle until "churn"; then two threads allocate as fast as they can while keeping a live set of
 * ~16 MB whose members are replaced now and then (so old objects die and the old generation must
 * be collected too), and "churning" is printed. In a small heap the collector works hard.
 */
public final class GcPressure {
    static final int LIVE_OBJECTS = 100_000;
    static final Object[] LIVE = new Object[LIVE_OBJECTS];
    static volatile Object sink;

    private GcPressure() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            if (command.equals("churn")) {
                for (int t = 0; t < 2; t++) {
                    Thread worker = new Thread(GcPressure::churn, "churn-" + t);
                    worker.setDaemon(true);
                    worker.start();
                }
                System.out.println("churning");
            }
        });
    }

    static void churn() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (long n = 0; ; n++) {
            if ((n & 15) == 0) {
                LIVE[random.nextInt(LIVE_OBJECTS)] = new byte[64 + random.nextInt(192)];
            }
            sink = new byte[16 + random.nextInt(512)];
        }
    }
}
