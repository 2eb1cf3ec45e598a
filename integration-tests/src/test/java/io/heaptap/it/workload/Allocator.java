package io.heaptap.it.workload;

/** A target that allocates all the time from two known methods, until told to exit. */
public final class Allocator {
    static volatile Object sink;

    private Allocator() {
    }

    public static void main(String[] args) throws Exception {
        Thread t = new Thread(() -> {
            while (true) {
                for (int i = 0; i < 100; i++) {
                    sink = allocateBuffer();
                }
                sink = allocateLongs();
            }
        }, "allocator");
        t.setDaemon(true);
        t.start();
        Commands.serve(c -> { });
    }

    static byte[] allocateBuffer() {
        return new byte[1024];
    }

    static long[] allocateLongs() {
        return new long[65_536];
    }
}
