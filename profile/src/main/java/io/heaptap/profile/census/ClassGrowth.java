package io.heaptap.profile.census;

import io.heaptap.profile.Estimate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A class's exact growth between two censuses, and its attribution to the sampled sites that allocate
 * it. The class's growth is exact (both censuses count every object after a whole-heap collection);
 * a site's part of it is the class's growth times the site's share of the sampled growth of that class,
 * and that share has a 95% interval from the sites' own intervals (the site at its lowest against the
 * others at their highest, and the reverse): exact at class level, an interval at site level. When the
 * sites together cannot have grown as much as the class (the upper ends of their intervals add up to less),
 * the class grew by objects no sampled site accounts for, and each site's part is its own growth instead.
 *
 * @param name            the class
 * @param bytesBefore     its bytes at the first census (exact)
 * @param bytesAfter      its bytes at the last census (exact)
 * @param instancesGrowth instances gained (exact)
 * @param minutes         time between the two censuses
 * @param sites           the sites of this class that grew, largest share first
 */
public record ClassGrowth(String name, long bytesBefore, long bytesAfter, long instancesGrowth, double minutes, List<SiteShare> sites) {
    /** Classes whose growth is shown: the rest grew less. */
    public static final int SHOWN = 10;

    /** A sampled site's share of its class's growth, with a 95% interval, and the bytes per minute it stands for. */
    public record SiteShare(String allocatedAt, double share, double shareLow, double shareHigh, double bytesPerMinute,
                            double bytesPerMinuteLow, double bytesPerMinuteHigh) {
    }

    /** A sampled site: where it allocates, its type, and how much its proven live bytes grew between the censuses. */
    public record SiteGrowth(String allocatedAt, String type, Estimate growth) {
    }

    public ClassGrowth {
        sites = List.copyOf(sites);
    }

    public double bytesPerMinute() {
        return minutes <= 0 ? 0 : (bytesAfter - bytesBefore) / minutes;
    }

    /**
     * The classes named in both censuses that grew, fastest first (at most {@link #SHOWN}), each with its
     * growing sites among {@code sites}. A class named only in the later census grew from the other classes'
     * row: its growth is not exact, and it is left out.
     */
    public static List<ClassGrowth> between(ClassCensus first, ClassCensus last, List<SiteGrowth> sites) {
        double minutes = (last.atMillis() - first.atMillis()) / 60_000.0;
        List<ClassGrowth> grown = new ArrayList<>();
        if (minutes <= 0) {
            return grown;
        }
        for (ClassCount now : last.top()) {
            if (filler(now.name())) {
                continue;
            }
            ClassCount before = first.row(now.name());
            if (before == null || now.bytes() <= before.bytes()) {
                continue;
            }
            grown.add(new ClassGrowth(now.name(), before.bytes(), now.bytes(), now.instances() - before.instances(), minutes, List.of()));
        }
        grown.sort(Comparator.comparingDouble(ClassGrowth::bytesPerMinute).reversed());
        List<ClassGrowth> shown = new ArrayList<>();
        for (ClassGrowth g : grown.subList(0, Math.min(SHOWN, grown.size()))) {
            shown.add(new ClassGrowth(g.name, g.bytesBefore, g.bytesAfter, g.instancesGrowth, g.minutes, shares(g, sites)));
        }
        return shown;
    }

    /**
     * G1's fillers (JDK 19+) are dead space a heap inspection counts as objects: after a full collection they fill
     * the ends of compacted regions, and they grow with the heap (measured, JDK 25: 6 MB/min beside a 6 MB/min leak).
     * They hold heap, so the accounting keeps them; they are no class of the application's, so no growth of theirs is evidence.
     */
    static boolean filler(String name) {
        return name.startsWith("jdk.internal.vm.Filler");
    }

    private static List<SiteShare> shares(ClassGrowth g, List<SiteGrowth> sites) {
        List<SiteGrowth> of = sites.stream().filter(s -> s.type().equals(g.name) && s.growth().value() > 0).toList();
        double sum = 0;
        double sumLow = 0;
        double sumHigh = 0;
        for (SiteGrowth s : of) {
            sum += s.growth().value();
            sumLow += Math.max(0, s.growth().lower());
            sumHigh += s.growth().upper();
        }
        List<SiteShare> shares = new ArrayList<>();
        double rate = g.bytesPerMinute();
        double grew = g.bytesAfter - g.bytesBefore;
        // When the sites cannot explain the class's growth, shares among them would hand all of it to whichever grew by
        // chance (measured, #36's scenario on ZGC and Shenandoah: byte[] grew 1.4-1.8 MB/min, "100% [100%, 100%]" of it
        // given to a cache that did not grow): each site's part is then its own growth, as a share of the class's.
        boolean unexplained = sumHigh < grew;
        for (SiteGrowth s : of) {
            double v = s.growth().value();
            double lo = Math.max(0, s.growth().lower());
            double hi = s.growth().upper();
            double share;
            double shareLow;
            double shareHigh;
            if (unexplained) {
                share = v / grew;
                shareLow = lo / grew;
                shareHigh = hi / grew;
            } else {
                double othersHigh = sumHigh - hi;
                double othersLow = sumLow - lo;
                share = v / sum;
                shareLow = lo + othersHigh <= 0 ? 0 : lo / (lo + othersHigh);
                shareHigh = hi + othersLow <= 0 ? 1 : hi / (hi + Math.max(0, othersLow));
            }
            shares.add(new SiteShare(s.allocatedAt(), share, shareLow, shareHigh, rate * share, rate * shareLow, rate * shareHigh));
        }
        shares.sort(Comparator.comparingDouble(SiteShare::share).reversed());
        return shares;
    }
}
