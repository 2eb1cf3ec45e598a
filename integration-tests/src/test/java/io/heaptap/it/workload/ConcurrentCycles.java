package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A G1 target whose young collections are rare and whose concurrent cycles run on demand: it keeps
 * 600 MB (old after its first collection, so a marking takes a while), and a thread churns 1 KiB
 * arrays that die at once at about 100 MB/s, slow enough that a 1 GiB young generation fills only
 * every ten seconds. Run it with {@code -XX:+ExplicitGCInvokesConcurrent}: "cycle" then starts a
 * concurrent cycle (a young collection, then marking, Remark and Cleanup) and prints "cycled" when
 * it has ended. Churn allocated during the marking is garbage no collection has seen yet.
 */
public final class ConcurrentCycles {
    static final List<byte[]> KEPT = new ArrayList<>();
    static volatile Object sink;

    private ConcurrentCycles() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 600_000; i++) {
            KEPT.add(new byte[1_000]);
        }
        Thread churn = new Thread(ConcurrentCycles::churn, "churn");
        churn.setDaemon(true);
        churn.start();
        Commands.serve(command -> {
            if (command.equals("cycle")) {
                System.gc();  // returns once the concurrent cycle it started has ended
                System.out.println("cycled");
            }
        });
    }

    static void churn() {
        while (true) {
            for (int i = 0; i < 1_000; i++) {
                sink = new byte[1_000];
            }
            LockSupport.parkNanos(10_000_000);  // about 100 MB/s
        }
    }
}
