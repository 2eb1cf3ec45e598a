package io.heaptap.bench;

import java.util.concurrent.atomic.LongAdder;

/**
 * A target that churns humongous arrays: 3 MiB each (humongous on G1 with regions of up to 4 MiB),
 * dropped at once, next to some small garbage. One operation is one array. On G1 an unreferenced
 * humongous array is reclaimed at the next young collection (eager reclaim), unless something, such
 * as heaptap's weak reference to a sampled one, holds it: the case for measuring what heaptap's
 * large-object stratum costs and whether its live figures stay possible.
 */
public final class HumongousTarget {
    static final LongAdder OPS = new LongAdder();
    static volatile Object sink;

    private HumongousTarget() {
    }

    public static void main(String[] args) throws Exception {
        Thread worker = new Thread(HumongousTarget::work, "humongous");
        worker.setDaemon(true);
        worker.start();
        AllocationHeavyTarget.Protocol.serve(OPS);
    }

    static void work() {
        while (true) {
            sink = new byte[3 << 20];
            for (int i = 0; i < 64; i++) {
                sink = new byte[256];
            }
            OPS.increment();
        }
    }
}
