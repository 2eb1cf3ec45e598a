package io.heaptap.it.workload;

/**
 * A target scraped continuously whose allocations between two commands are known exactly: on
 * "go" (or "go N": N batches) it allocates a fixed batch from two sites and prints {@code done small=<objects> <bytes>
 * large=<objects> <bytes>}; meanwhile (first argument "busy") a background thread allocates all
 * the time from a third site, so the sampler sees a heavy, steady rate. Every object escapes to a
 * volatile field so the JIT cannot remove an allocation.
 */
public final class ScrapedAllocations {
    public static final int SMALL_LENGTH = 1_008;     // byte[1008]: 1 KiB with the header
    public static final int SMALL_BYTES = 1_024;
    public static final int SMALL_PER_BATCH = 400_000;
    public static final int LARGE_LENGTH = 65_520;    // byte[65520]: 64 KiB with the header
    public static final int LARGE_BYTES = 65_536;
    public static final int LARGE_PER_BATCH = 8_000;

    static volatile Object sink;
    static volatile Object backgroundSink;

    private ScrapedAllocations() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("busy")) {
            Thread t = new Thread(() -> {
                while (true) {
                    background();
                }
            }, "background");
            t.setDaemon(true);
            t.start();
        }
        Commands.serve(command -> {
            if (command.equals("go") || command.startsWith("go ")) {
                int times = command.equals("go") ? 1 : Integer.parseInt(command.substring(3).trim());
                for (int i = 0; i < times; i++) {
                    small();
                    large();
                }
                long small = (long) times * SMALL_PER_BATCH;
                long large = (long) times * LARGE_PER_BATCH;
                System.out.println("done small=" + small + " " + small * SMALL_BYTES + " large=" + large + " " + large * LARGE_BYTES);
                System.out.flush();
            }
        });
    }

    static void small() {
        for (int i = 0; i < SMALL_PER_BATCH; i++) {
            sink = new byte[SMALL_LENGTH];
        }
    }

    static void large() {
        for (int i = 0; i < LARGE_PER_BATCH; i++) {
            sink = new byte[LARGE_LENGTH];
        }
    }

    static void background() {
        for (int i = 0; i < 10_000; i++) {
            backgroundSink = new byte[200];
        }
    }
}
