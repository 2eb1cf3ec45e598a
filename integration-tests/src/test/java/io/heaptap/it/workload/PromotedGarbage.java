package io.heaptap.it.workload;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Garbage in the old generation that only young collections have run over since it died. "build"
 * keeps 100 MB of 16 KiB arrays ({@code keepThenDrop}) while churning 1 KiB garbage through twenty
 * collections, so a generational collector promotes the set; "drop" lets the set go, churns through
 * three more collections and prints "dropped". The dropped set is then garbage no whole-heap marking
 * has examined: a young collection leaves the old generation's objects, and their weak references, alone.
 */
public final class PromotedGarbage {
    public static final int SET_BYTES = 100 << 20;
    static final int LENGTH = 16 * 1024;
    static List<byte[]> set = new ArrayList<>();
    static volatile Object sink;

    private PromotedGarbage() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            switch (command) {
                case "build" -> {
                    keepThenDrop();
                    churnThrough(20);
                    System.out.println("built");
                }
                case "drop" -> {
                    set = new ArrayList<>();
                    churnThrough(3);
                    System.out.println("dropped");
                }
                default -> throw new IllegalArgumentException(command);
            }
        });
    }

    static void keepThenDrop() {
        for (int i = 0; i < SET_BYTES / LENGTH; i++) {
            set.add(new byte[LENGTH]);
        }
    }

    /** Allocates garbage until the collectors have run {@code collections} more times. */
    static void churnThrough(int collections) {
        long until = collections() + collections;
        while (collections() < until) {
            for (int i = 0; i < 10_000; i++) {
                sink = new byte[1024];
            }
        }
    }

    static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            // cycles, not the pauses inside them (Shenandoah, ZGC), which would count each cycle several times
            if (!b.getName().endsWith("Pauses")) {
                n += b.getCollectionCount();
            }
        }
        return n;
    }
}
