package io.heaptap.profile.census;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveStats;

import java.util.HashMap;
import java.util.Map;

/**
 * What heaptap's live tracking held, per class, of objects no marking had examined yet, when a census counted the heap:
 * their sizes as they are, and how many. ZGC's and Shenandoah's census marks from every root, weak ones too, so it counts
 * a sampled object whose only reference is heaptap's; a watch takes these out of its censuses there ({@link
 * ClassCensus#less}), or heaptap's own garbage reads as the application's growth (measured, generational ZGC, JDK 25, a
 * target with no leak: {@code byte[]} grew 22 MiB/min between two censuses 20 s apart, 3,260 of the garbage thread's
 * arrays). Objects a marking has examined and found live are the application's, and stay. Unexamined samples the
 * application still holds are taken out with the garbage until a marking examines them: one object's own size for
 * every sampling interval the application allocated since the marking began, where the garbage among them is what
 * heaptap alone holds for the whole time.
 *
 * @param byClass by class name as the census names it: {count, bytes}
 * @param bytes   their sizes, over all classes
 */
public record HeldByTracking(Map<String, long[]> byClass, long bytes) {
    public static final HeldByTracking NONE = new HeldByTracking(Map.of(), 0);

    public HeldByTracking {
        byClass = Map.copyOf(byClass);
    }

    /** What the sites of {@code profile}, decoded right after a census, held unexamined. */
    public static HeldByTracking of(AllocationProfile profile) {
        Map<String, long[]> byClass = new HashMap<>();
        long bytes = 0;
        for (AllocationSite site : profile.sites()) {
            LiveStats l = site.live();
            long count = l.unexamined().tracked() + l.heldUnexamined().tracked();
            if (count > 0) {
                long[] sum = byClass.computeIfAbsent(site.type(), k -> new long[2]);
                sum[0] += count;
                sum[1] += l.unexaminedOwnBytes();
                bytes += l.unexaminedOwnBytes();
            }
        }
        return new HeldByTracking(byClass, bytes);
    }

    /** A total alone, not by class (a reading of the agent's own count). */
    public static HeldByTracking total(long bytes) {
        return new HeldByTracking(Map.of(), Math.max(0, bytes));
    }

    /** {count, bytes} of {@code name}, zeros when none. */
    long[] of(String name) {
        long[] sum = byClass.get(name);
        return sum == null ? new long[2] : sum;
    }
}
