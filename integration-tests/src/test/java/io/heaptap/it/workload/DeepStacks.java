package io.heaptap.it.workload;

/**
 * One thread allocating as fast as it can 80 compiled frames below {@code Thread.run}, as a service
 * does under its framework's frames: every kept sample costs a stack walk of the full 64-frame depth
 * (HotSpot's walk takes about 150 ns a frame when samples come often, several times that when they
 * are rare), where a shallow workload's costs a tenth of it.
 */
public final class DeepStacks {
    static final int DEPTH = 80;
    static volatile Object sink;

    private DeepStacks() {
    }

    public static void main(String[] args) throws Exception {
        Thread worker = new Thread(DeepStacks::work, "deep-0");
        worker.setDaemon(true);
        worker.start();
        Commands.serve(c -> { });
    }

    static void work() {
        // Compiled before the frames that stay on the stack are entered: an interpreted activation stays interpreted.
        for (int i = 0; i < 20_000; i++) {
            descend(DEPTH, true);
        }
        descend(DEPTH, false);
    }

    static long descend(int depth, boolean warmUp) {
        if (depth > 0) {
            return descend(depth - 1, warmUp) + 1;
        }
        if (!warmUp) {
            for (long i = 0; ; i++) {
                sink = new byte[64];
                sink = new Object[16];
                if ((i & 15) == 0) {
                    sink = new byte[8 * 1024];
                }
            }
        }
        return 0;
    }
}
