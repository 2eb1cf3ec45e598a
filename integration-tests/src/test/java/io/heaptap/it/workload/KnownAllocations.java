package io.heaptap.it.workload;

/**
 * A target whose allocations are known exactly: on "go" it allocates a fixed mix from one method
 * per site and prints "done"; on "for N" it repeats whole rounds of the same mix until N seconds
 * have passed and prints "done R", R being the rounds it ran (the truth is then R rounds' worth).
 * Sizes span tens of bytes to several MiB, including arrays just below the default 512 KiB
 * interval, and one helper is called from two callers in a 2:1 ratio.
 * Counts are chosen so that at 512 KiB every site's estimate has a relative standard deviation of
 * at most 1.2% (AccuracyIT checks that from the truth): about 24 GB in all. The two sites whose
 * precision is bound by their object count rather than their share of the bytes (arrays just
 * below 512 KiB, sampled with probability 0.2-0.6, and the 3.8 MiB one) come twice per round:
 * with one each, a 10 s capture at the defaults left the first at sigma 1.38%, so 5% was under
 * 4 sigma (AccuracyIT's defaults test failed its own check on a fresh clone).
 * Every object escapes to a volatile field so the JIT cannot remove an allocation.
 */
public final class KnownAllocations {
    public static final int ROUNDS = 250;
    public static final int TINY_LENGTH = 48;              // byte[48]: 64 bytes
    public static final int TINY_PER_ROUND = 228_000;
    public static final int MEDIUM_LENGTH = 8_176;         // 8 KiB
    public static final int MEDIUM_PER_ROUND = 1_770;
    public static final int BELOW_INTERVAL_LENGTH = 500_000;  // ~488 KiB, just below 512 KiB
    public static final int BELOW_INTERVAL_PER_ROUND = 36;
    public static final int LARGE_LENGTH = 4_000_000;      // ~3.8 MiB
    public static final int LARGE_PER_ROUND = 2;
    public static final int RECORD_LENGTH = 16_368;        // 16 KiB, from the shared helper
    public static final int CALLER_A_PER_ROUND = 1_760;
    public static final int CALLER_B_PER_ROUND = 880;

    static volatile Object sink;

    private KnownAllocations() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            if (command.equals("go")) {
                for (int round = 0; round < ROUNDS; round++) {
                    round();
                }
                System.out.println("done");
            } else if (command.startsWith("for ")) {
                long end = System.nanoTime() + Long.parseLong(command.substring(4).trim()) * 1_000_000_000L;
                int rounds = 0;
                do {
                    round();
                    rounds++;
                } while (System.nanoTime() < end);
                System.out.println("done " + rounds);
            }
        });
    }

    static void round() {
        tiny();
        medium();
        belowInterval();
        large();
        callerA();
        callerB();
    }

    static void tiny() {
        for (int i = 0; i < TINY_PER_ROUND; i++) {
            sink = new byte[TINY_LENGTH];
        }
    }

    static void medium() {
        for (int i = 0; i < MEDIUM_PER_ROUND; i++) {
            sink = new byte[MEDIUM_LENGTH];
        }
    }

    static void belowInterval() {
        for (int i = 0; i < BELOW_INTERVAL_PER_ROUND; i++) {
            sink = new byte[BELOW_INTERVAL_LENGTH];
        }
    }

    static void large() {
        for (int i = 0; i < LARGE_PER_ROUND; i++) {
            sink = new byte[LARGE_LENGTH];
        }
    }

    static void callerA() {
        for (int i = 0; i < CALLER_A_PER_ROUND; i++) {
            sink = record();
        }
    }

    static void callerB() {
        for (int i = 0; i < CALLER_B_PER_ROUND; i++) {
            sink = record();
        }
    }

    static byte[] record() {
        return new byte[RECORD_LENGTH];
    }
}
