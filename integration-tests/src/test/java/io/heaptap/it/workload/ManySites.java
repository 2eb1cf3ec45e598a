package io.heaptap.it.workload;

/**
 * A service with many allocation sites on a small heap: 1,024 distinct stacks (ten levels, each through
 * {@code a} or {@code b}), allocating arrays of 64 B to 1 KiB at each, one in eight kept in a ring of 20,000
 * (about 12 MiB), the rest garbage. A leak watch sees every site within a few seconds.
 */
public final class ManySites {
    private static final int LEVELS = 10;
    public static final int SITES = 1 << LEVELS;
    private static final Object[] RING = new Object[20_000];
    private static int next;
    static long sink;

    private ManySites() {
    }

    public static void main(String[] args) throws Exception {
        Thread t = new Thread(ManySites::allocate, "many-sites");
        t.setDaemon(true);
        t.start();
        Commands.serve(command -> { });
    }

    private static void allocate() {
        long n = 0;
        while (true) {
            for (int i = 0; i < SITES; i++) {
                f(i, 0, n++);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void f(int site, int level, long n) {
        if (level == LEVELS) {
            byte[] b = new byte[64 + (site & 63) * 16];
            sink += b.length;
            if ((n & 7) == 0) {
                RING[next++ % RING.length] = b;
            }
            return;
        }
        if ((site >> level & 1) == 1) {
            a(site, level + 1, n);
        } else {
            b(site, level + 1, n);
        }
    }

    private static void a(int site, int level, long n) {
        f(site, level, n);
    }

    private static void b(int site, int level, long n) {
        f(site, level, n);
    }
}
