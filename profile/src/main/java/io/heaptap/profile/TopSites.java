package io.heaptap.profile;

import java.util.ArrayList;
import java.util.List;

/**
 * The top-N rows every view shows (the MBean's topAllocations and topLive, {@code /api/top}, the text
 * table), ranked and measured once here, so the views differ only in how they print a row.
 */
public final class TopSites {
    private TopSites() {
    }

    /**
     * A site at its rank.
     *
     * @param percent the site's share of the capture's estimated allocated bytes, 0 when nothing was allocated
     */
    public record Row(int rank, AllocationSite site, double percent) {
        /** Live bytes no marking has examined yet, the held ones included. */
        public double unexaminedBytes() {
            LiveStats l = site.live();
            return l.unexamined().bytes().value() + l.heldUnexamined().bytes().value();
        }
    }

    /** The {@code n} sites that allocated the most in this capture, largest first. */
    public static List<Row> byAllocatedBytes(AllocationProfile profile, int n) {
        return rows(profile, profile.sitesByBytes(), n);
    }

    /** The {@code n} sites holding the most proven live bytes, largest first. */
    public static List<Row> byLiveBytes(AllocationProfile profile, int n) {
        return rows(profile, profile.sitesByLiveBytes(), n);
    }

    private static List<Row> rows(AllocationProfile profile, List<AllocationSite> ranked, int n) {
        double total = profile.totals().estimatedBytes();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < Math.min(n, ranked.size()); i++) {
            AllocationSite s = ranked.get(i);
            rows.add(new Row(i + 1, s, total > 0 ? 100 * s.estimatedBytes() / total : 0));
        }
        return rows;
    }
}
