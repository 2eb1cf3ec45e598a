package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A target for the class census: a stable set built before heaptap comes ({@link #STABLE_MIB} MiB of
 * byte arrays, which heaptap never samples), and on "leak" a leak of {@link Entry} objects at exactly
 * {@link #ENTRIES_PER_SECOND} a second by the wall clock (each tick catches up, so a slow scheduler
 * shifts entries by one tick at most, never changes the rate), linked one to the next: no array grows
 * beside it, so the heap after each collection rises by the leak alone. On "garbage", a thread of garbage as well.
 */
public final class CensusLeak {
    public static final int STABLE_MIB = 512;
    /** About 100 KB/s of 32-byte entries. */
    public static final int ENTRIES_PER_SECOND = 3_200;

    /** 12 bytes of header and 20 of fields: 32 bytes with compressed oops, the truth the census is checked against. */
    public record Entry(long a, long b, Entry next) {
    }

    static final List<byte[]> STABLE = new ArrayList<>();
    static volatile Entry leaked;
    static volatile Object sink;

    private CensusLeak() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < STABLE_MIB * 1_024; i++) {
            STABLE.add(new byte[1_008]);
        }
        Commands.serve(command -> {
            if (command.equals("leak")) {
                Thread t = new Thread(CensusLeak::leak, "leak");
                t.setDaemon(true);
                t.start();
                System.out.println("leaking");
            } else if (command.equals("garbage")) {
                Thread t = new Thread(CensusLeak::garbage, "garbage");
                t.setDaemon(true);
                t.start();
                System.out.println("collecting garbage");
            }
        });
    }

    /** Arrays of 64 B to 4 KiB, dead at once, a few hundred MB a second: what live tracking samples most of. */
    private static void garbage() {
        while (true) {
            for (int i = 0; i < 2_000; i++) {
                sink = new byte[64 + (i & 63) * 64];
            }
            LockSupport.parkNanos(5_000_000);
        }
    }

    private static void leak() {
        long start = System.nanoTime();
        long added = 0;
        while (true) {
            long due = (System.nanoTime() - start) * ENTRIES_PER_SECOND / 1_000_000_000L;
            Entry head = leaked;
            for (; added < due; added++) {
                head = new Entry(added, due, head);
            }
            leaked = head;
            for (int i = 0; i < 2_000; i++) {
                sink = new byte[256];  // some garbage, as a service makes
            }
            LockSupport.parkNanos(20_000_000);
        }
    }
}
