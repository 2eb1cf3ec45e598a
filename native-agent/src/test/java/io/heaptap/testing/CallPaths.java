package io.heaptap.testing;

/**
 * A workload with a known number of distinct allocation stacks: {@code 2^levels} call paths, each
 * level passing through one of two methods ({@link #left} or {@link #right}, chosen by one bit of
 * the path), down to the same allocations. Tests that need many distinct stacks (table growth,
 * dump cost, a big profile in a small heap) share it from this module's test-jar, so their stacks
 * have the same shape everywhere.
 */
public final class CallPaths {
    static volatile Object sink;

    private CallPaths() {
    }

    /** Walks every one of the {@code 2^levels} paths once; each allocates {@code allocations} arrays of {@code bytes}. */
    public static void everyPath(int levels, int allocations, int bytes) {
        for (int path = 0; path < 1 << levels; path++) {
            walk(path, levels, allocations, bytes);
        }
    }

    /** One path: bit {@code i} of {@code bits} picks the method at level {@code i}. */
    public static void walk(int bits, int level, int allocations, int bytes) {
        if (level == 0) {
            for (int i = 0; i < allocations; i++) {
                sink = new byte[bytes];
            }
        } else if ((bits & 1) == 0) {
            left(bits >>> 1, level - 1, allocations, bytes);
        } else {
            right(bits >>> 1, level - 1, allocations, bytes);
        }
    }

    static void left(int bits, int level, int allocations, int bytes) {
        walk(bits, level, allocations, bytes);
    }

    static void right(int bits, int level, int allocations, int bytes) {
        walk(bits, level, allocations, bytes);
    }
}
