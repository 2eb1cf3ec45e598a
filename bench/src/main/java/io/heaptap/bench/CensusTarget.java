package io.heaptap.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * The census section's heap: "build" fills it with a live set of about -Dbench.liveBytes of mixed small
 * objects (16 to ~200 bytes) of many classes (the shapes below, plus arrays, strings, boxes, lists and
 * maps), then collects and prints "built USED_BYTES OBJECTS"; the set is held until the JVM exits. No
 * thread allocates afterwards, so every safepoint while a census runs is the census's.
 */
public final class CensusTarget {
    static final LongAdder OPS = new LongAdder();
    /** Held until the JVM exits: chunks of objects. */
    static final List<Object[]> KEPT = new ArrayList<>();

    private CensusTarget() {
    }

    record Point(int x, int y) {
    }

    record Name(String first, String last) {
    }

    record Money(long cents, String currency) {
    }

    record Line(long id, int quantity, Money price, Object item) {
    }

    record Event(long at, byte kind, short source, int value, double weight) {
    }

    record Pair(Object left, Object right) {
    }

    record Triple(long a, long b, long c) {
    }

    record Flags(boolean a, boolean b, boolean c, boolean d, char e) {
    }

    static final class Node {
        Object value;
        Node next;
        int hash;
    }

    static final class Wide {
        long a, b, c, d, e, f, g, h;
    }

    static final class Tree {
        Tree left, right;
        Object key;
    }

    /** One maker per kind of object, with its approximate size in bytes (compressed oops and class pointers). */
    private record Maker(int bytes, IntFunction<Object> make) {
    }

    private static final Maker[] MAKERS = {
        new Maker(16, i -> new Point(i, -i)),
        new Maker(24, i -> new Name("a", "b")),
        new Maker(24, i -> new Money(i, "EUR")),
        new Maker(32, i -> new Line(i, i & 7, null, null)),
        new Maker(32, i -> new Event(i, (byte) i, (short) i, i, i)),
        new Maker(24, i -> new Pair(null, null)),
        new Maker(40, i -> new Triple(i, i, i)),
        new Maker(24, i -> new Flags(true, false, true, false, 'x')),
        new Maker(24, i -> new Node()),
        new Maker(80, i -> new Wide()),
        new Maker(24, i -> new Tree()),
        new Maker(88, CensusTarget::bytes),  // 32 to 144 bytes, 88 on average
        new Maker(16 + 4 * 16, i -> new int[16]),
        new Maker(16 + 8 * 8, i -> new long[8]),
        new Maker(16 + 4 * 12, i -> new Object[12]),
        new Maker(24 + 24 + 8, i -> Integer.toString(i * 31)),
        new Maker(16, Long::valueOf),
        new Maker(16 + 40 + 16, i -> new ArrayList<>(List.of(i))),
        new Maker(48 + 80 + 32, i -> new HashMap<>(Map.of(i, i))),
    };

    private static Object bytes(int i) {
        return new byte[16 * ((i & 7) + 1)];
    }

    public static void main(String[] args) throws Exception {
        long target = Long.parseLong(System.getProperty("bench.liveBytes", Long.toString(256L << 20)));
        AllocationHeavyTarget.Protocol.serve(OPS, Map.of("build", () -> System.out.println("built " + build(target))));
    }

    /** Builds about {@code bytes} of live objects, collects, and says the heap used after it and the objects made. */
    static String build(long bytes) {
        long made = 0;
        long estimated = 0;
        int chunk = 4096;
        while (estimated < bytes) {
            Object[] kept = new Object[chunk];
            estimated += 16 + 4L * chunk;
            for (int j = 0; j < chunk; j++) {
                Maker m = MAKERS[(int) (made % MAKERS.length)];
                kept[j] = m.make().apply((int) made);
                estimated += m.bytes();
                made++;
            }
            KEPT.add(kept);
        }
        System.gc();
        Runtime r = Runtime.getRuntime();
        return (r.totalMemory() - r.freeMemory()) + " " + made;
    }
}
