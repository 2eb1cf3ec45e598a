package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * A target that allocates next to nothing on its own, so its collector runs no collection the
 * test did not ask for: "gc" calls System.gc() (a whole-heap collection on every collector) and
 * answers "gc done"; "fill" keeps 8 MiB (below ZGC's warm-up threshold of a 256 MiB heap) and answers "filled", so there is something to mark.
 */
public final class Quiet {
    static final List<byte[]> KEPT = new ArrayList<>();

    private Quiet() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            if (command.equals("gc")) {
                System.gc();
                System.out.println("gc done");
            } else if (command.equals("fill")) {
                for (int i = 0; i < 8 * 1024; i++) {
                    KEPT.add(new byte[1008]);
                }
                System.out.println("filled");
            }
        });
    }
}
