package io.heaptap.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** A nearly idle target for the attach phases: one thread allocating 64 KiB a millisecond, so a capture's first sample comes at once. */
public final class IdleTarget {
    static final LongAdder OPS = new LongAdder();
    static volatile Object sink;

    private IdleTarget() {
    }

    public static void main(String[] args) throws Exception {
        Thread worker = new Thread(() -> {
            while (true) {
                sink = new byte[64 * 1024];
                OPS.increment();
                try {
                    TimeUnit.MILLISECONDS.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "idle-alloc");
        worker.setDaemon(true);
        worker.start();
        AllocationHeavyTarget.Protocol.serve(OPS);
    }
}
