package io.heaptap.it.workload;


/**
 * A small-heap target with many distinct stacks and a known batch, for delta scrapes under
 * heaptap's heap budget. {@code fill} walks 2^{@value #LEVELS} call paths (each level through one of
 * two methods), 4 KiB at the end of each, more distinct stacks than continuous sampling's table holds
 * in a small heap; it prints {@code filled}. {@code go} allocates
 * {@value #PER_BATCH} arrays of 64 KiB from one site and prints {@code done <objects> <bytes>};
 * {@code retained} collects twice and prints {@code retained used=<heap in use after the collection> oom=<yes|no>}: what
 * stays reachable (the application keeps nothing, so it is heaptap's and the JVM's), and whether any
 * allocation of the workload failed. Every object escapes to a volatile field so the JIT cannot
 * remove an allocation.
 */
public final class ScrapedPaths {
    public static final int LENGTH = 65_520;  // byte[65520]: 64 KiB with the header
    public static final int BYTES = 65_536;
    public static final int PER_BATCH = 16_000;
    static final int LEVELS = 16;
    static volatile Object sink;
    static volatile boolean oom;

    private ScrapedPaths() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            try {
                switch (command) {
                    case "fill" -> {
                        for (int path = 0; path < 1 << LEVELS; path++) {
                            walk(path, 0);
                        }
                        System.out.println("filled");
                    }
                    case "go" -> {
                        batch();
                        System.out.println("done " + PER_BATCH + " " + (long) PER_BATCH * BYTES);
                    }
                    case "retained" -> {
                        System.gc();
                        System.gc();
                        System.out.println("retained used=" + HeapAfterGc.used() + " oom=" + (oom ? "yes" : "no"));
                    }
                    default -> System.out.println("unknown " + command);
                }
            } catch (OutOfMemoryError e) {
                oom = true;
                System.out.println("oom in " + command);
            }
            System.out.flush();
        });
    }

    static void walk(int bits, int level) {
        if (level == LEVELS) {
            sink = new byte[4096];
        } else if ((bits >> level & 1) == 0) {
            left(bits, level + 1);
        } else {
            right(bits, level + 1);
        }
    }

    static void left(int bits, int level) {
        walk(bits, level);
    }

    static void right(int bits, int level) {
        walk(bits, level);
    }

    static void batch() {
        for (int i = 0; i < PER_BATCH; i++) {
            sink = new byte[LENGTH];
        }
    }
}
