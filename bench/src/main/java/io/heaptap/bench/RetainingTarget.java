package io.heaptap.bench;

import java.util.concurrent.atomic.LongAdder;

/**
 * A target with a large live set (256k arrays of 512 B, about 130 MB) and steady garbage. "fill"
 * rebuilds the whole set (prints "filled"): done while heaptap samples, the live table fills with
 * objects that stay alive, the case for measuring what many weak references cost the collector
 * and the dump.
 */
public final class RetainingTarget {
    static final LongAdder OPS = new LongAdder();
    static final Object[] KEPT = new Object[256 * 1024];
    static volatile Object sink;

    private RetainingTarget() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < KEPT.length; i++) {
            KEPT[i] = new byte[512];
        }
        Thread worker = new Thread(RetainingTarget::work, "retaining");
        worker.setDaemon(true);
        worker.start();
        AllocationHeavyTarget.Protocol.serve(OPS, java.util.Map.of("fill", RetainingTarget::fill));
    }

    static void fill() {
        for (int i = 0; i < KEPT.length; i++) {
            KEPT[i] = new byte[512];
        }
        System.out.println("filled");
    }

    static void work() {
        while (true) {
            sink = new byte[128];
            OPS.increment();
        }
    }
}
