package io.heaptap.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The known-truth workload of the coverage section (issue #33, goal 2): two threads allocate garbage flat
 * out from the start; "build" (sent once heaptap's capture is on) makes each {@link #SITES} site allocate
 * and keep arrays of its own size until it holds its share of the heap (-Dbench.liveShare of the maximum
 * heap, split evenly; 0.4 by default), the sites interleaved object by object, and prints
 * "built SITE=OBJECTS:BYTES ..."; the sets are then held until the JVM exits.
 *
 * <p>Bytes are object sizes as the JVM counts them and heaptap reports them (JVMTI's object size): a
 * 16-byte array header (compressed class pointers, no compact headers: JDK 17's and 25's default) plus
 * the elements, 8-byte aligned. Every site's length makes the size exact: 64 B, 16 KiB, 256 KiB and
 * 1 MiB. 1 MiB is humongous on G1 at 256 MiB and 1 GiB heaps (1 MiB regions: from 512 KiB), so G1's
 * large-object stratum holds that site.
 */
public final class CoverageTarget {
    static final LongAdder OPS = new LongAdder();
    static volatile Object sink;
    /** The retained sets, one array per site: held (reachable) until the JVM exits. */
    static Object[][] kept;

    record Site(String name, long size, Supplier<byte[]> allocate) {
    }

    static final List<Site> SITES = List.of(new Site("keep64", 64, CoverageTarget::keep64),
            new Site("keep16k", 16 << 10, CoverageTarget::keep16k), new Site("keep256k", 256 << 10, CoverageTarget::keep256k),
            new Site("keep1m", 1 << 20, CoverageTarget::keep1m));

    private CoverageTarget() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 2; i++) {
            Thread t = new Thread(CoverageTarget::garbage, "garbage-" + i);
            t.setDaemon(true);
            t.start();
        }
        double share = Double.parseDouble(System.getProperty("bench.liveShare", "0.4"));
        long perSite = (long) (Runtime.getRuntime().maxMemory() * share / SITES.size());
        AllocationHeavyTarget.Protocol.serve(OPS, Map.of("build", () -> System.out.println("built" + build(perSite))));
    }

    /**
     * Each site allocates and keeps objects until it holds {@code bytesPerSite}; the next object always
     * comes from the site holding the fewest bytes. The holders are sized first (allocated here, in
     * {@code build}: no site's own frame), so every object a site allocates is kept.
     */
    static String build(long bytesPerSite) {
        Object[][] sets = new Object[SITES.size()][];
        for (int s = 0; s < SITES.size(); s++) {
            sets[s] = new Object[(int) Math.max(1, bytesPerSite / SITES.get(s).size())];
        }
        int[] filled = new int[SITES.size()];
        long[] bytes = new long[SITES.size()];
        while (true) {
            int s = -1;
            for (int i = 0; i < SITES.size(); i++) {
                if (filled[i] < sets[i].length && (s < 0 || bytes[i] < bytes[s])) {
                    s = i;
                }
            }
            if (s < 0) {
                break;
            }
            byte[] a = SITES.get(s).allocate().get();
            sets[s][filled[s]++] = a;
            bytes[s] += (16 + a.length + 7) & ~7L;
        }
        kept = sets;
        StringBuilder out = new StringBuilder();
        for (int s = 0; s < SITES.size(); s++) {
            out.append(' ').append(SITES.get(s).name()).append('=').append(filled[s]).append(':').append(bytes[s]);
        }
        return out.toString();
    }

    static void garbage() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (true) {
            sink = new byte[64 + random.nextInt(4096)];
            OPS.increment();
        }
    }

    static byte[] keep64() {
        return new byte[48];
    }

    static byte[] keep16k() {
        return new byte[(16 << 10) - 16];
    }

    static byte[] keep256k() {
        return new byte[(256 << 10) - 16];
    }

    static byte[] keep1m() {
        return new byte[(1 << 20) - 16];
    }
}
