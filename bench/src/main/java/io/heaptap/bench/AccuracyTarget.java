package io.heaptap.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The accuracy target: known allocations at known sites, counted by the target itself, so every
 * profiler's per-site estimate can be held against the truth.
 *
 * <p>Each site is its own method, so every profiler sees it as a distinct frame. "alloc" makes each
 * allocation site allocate about {@code -Dbench.allocMib} MiB, the sites interleaved object by object
 * so a profiler's rate limit over time (JFR's throttle) falls evenly on every site; it prints
 * "allocated SITE=OBJECTS:BYTES ...". "retain" makes each retaining site allocate
 * {@code -Dbench.retainMib} MiB and keep one object in two, the rest garbage from the same site; it prints "retained ..." with
 * what is kept (held until the next "retain").
 *
 * <p>Bytes are object sizes as the JVM counts them: a 16-byte array header (compressed class
 * pointers, no compact headers: the default on JDK 17 and 25) plus the elements, 8-byte aligned.
 */
public final class AccuracyTarget {
    static volatile Object sink;
    static final List<Object> KEPT = new ArrayList<>();

    record Site(String name, Supplier<byte[]> allocate) {
    }

    /** From tens of bytes to several MiB, with sizes around the 512 KiB interval. */
    static final List<Site> ALLOCATING = List.of(new Site("bytes64", AccuracyTarget::bytes64),
            new Site("bytes1k", AccuracyTarget::bytes1k), new Site("bytes64k", AccuracyTarget::bytes64k),
            new Site("bytes256k", AccuracyTarget::bytes256k), new Site("bytes500k", AccuracyTarget::bytes500k),
            new Site("bytes512k", AccuracyTarget::bytes512k), new Site("bytes1m", AccuracyTarget::bytes1m),
            new Site("bytes4m", AccuracyTarget::bytes4m));
    static final List<Site> RETAINING = List.of(new Site("kept1k", AccuracyTarget::kept1k),
            new Site("kept64k", AccuracyTarget::kept64k), new Site("kept1m", AccuracyTarget::kept1m));

    private AccuracyTarget() {
    }

    public static void main(String[] args) throws Exception {
        long allocBytes = Long.getLong("bench.allocMib", 64) << 20;
        long retainBytes = Long.getLong("bench.retainMib", 32) << 20;
        AllocationHeavyTarget.Protocol.serve(new java.util.concurrent.atomic.LongAdder(), java.util.Map.of(
                "alloc", () -> System.out.println("allocated" + run(ALLOCATING, allocBytes, false)),
                "retain", () -> System.out.println("retained" + run(RETAINING, retainBytes, true))));
    }

    /**
     * Runs the sites interleaved object by object: the next object always comes from the site that has
     * allocated the fewest bytes so far, as in an application where many sites allocate at once.
     * Returns " SITE=OBJECTS:BYTES" per site, of what was allocated (or kept).
     */
    static String run(List<Site> sites, long bytesPerSite, boolean keepHalf) {
        KEPT.clear();
        long[] objects = new long[sites.size()];
        long[] bytes = new long[sites.size()];
        long[] allocated = new long[sites.size()];
        while (true) {
            int s = 0;
            for (int i = 1; i < sites.size(); i++) {
                s = allocated[i] < allocated[s] ? i : s;
            }
            if (allocated[s] >= bytesPerSite) {
                break;
            }
            byte[] a = sites.get(s).allocate().get();
            long size = (16 + a.length + 7) & ~7L;
            allocated[s] += size;
            boolean counted = !keepHalf || (allocated[s] / size) % 2 == 0;
            if (counted) {
                objects[s]++;
                bytes[s] += size;
            }
            if (keepHalf && counted) {
                KEPT.add(a);
            } else {
                sink = a;
            }
        }
        StringBuilder out = new StringBuilder();
        for (int s = 0; s < sites.size(); s++) {
            out.append(' ').append(sites.get(s).name()).append('=').append(objects[s]).append(':').append(bytes[s]);
        }
        return out.toString();
    }

    static byte[] bytes64() {
        return new byte[48];
    }

    static byte[] bytes1k() {
        return new byte[1008];
    }

    static byte[] bytes64k() {
        return new byte[65_520];
    }

    static byte[] bytes256k() {
        return new byte[262_128];
    }

    /** Just below the interval, where max(size, interval) weighting is furthest off. */
    static byte[] bytes500k() {
        return new byte[499_984];
    }

    static byte[] bytes512k() {
        return new byte[524_272];
    }

    static byte[] bytes1m() {
        return new byte[1_048_560];
    }

    static byte[] bytes4m() {
        return new byte[4_194_288];
    }

    static byte[] kept1k() {
        return new byte[1008];
    }

    static byte[] kept64k() {
        return new byte[65_520];
    }

    static byte[] kept1m() {
        return new byte[1_048_560];
    }
}
