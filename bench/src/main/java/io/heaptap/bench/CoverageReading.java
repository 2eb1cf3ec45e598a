package io.heaptap.bench;

import io.heaptap.profile.format.JsonReader;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one heaptap JSON profile says of the coverage workload's sites: each site's proven live bytes
 * with their 95% interval ({@code sites[].live.proven.estimatedBytes}, {@code ...Low}, {@code ...High}),
 * and whether the live-tracking bound thinned the tracked set ({@code live.keepProbability},
 * {@code live.hold}).
 *
 * @param sites     by the site's name (the first group of the site pattern); a site with no proven live figure is absent
 * @param allocated the same sites' allocated bytes ({@code sites[].estimatedBytes}) with their interval: where every
 *                  object a site allocated in the capture is still held, their truth is the same, so they tell the
 *                  sampler's part of a miss from live tracking's
 * @param hold      the bound and what it did
 */
record CoverageReading(Map<String, Estimate> sites, Map<String, Estimate> allocated, Hold hold) {
    /**
     * A site's proven live bytes and 95% interval. {@code stacks} is how many of the profile's stacks the
     * site's figure sums: one in this workload (one call site per method). Should there be more, their
     * estimates add and the interval's two half-widths add in quadrature (independent samples).
     */
    record Estimate(double bytes, double low, double high, int stacks) {
        static final Estimate NONE = new Estimate(0, 0, 0, 0);

        boolean covers(double truth) {
            return low <= truth && truth <= high;
        }

        Estimate plus(Estimate o) {
            double below = Math.hypot(bytes - low, o.bytes - o.low);
            double above = Math.hypot(high - bytes, o.high - o.bytes);
            double sum = bytes + o.bytes;
            return new Estimate(sum, Math.max(0, sum - below), sum + above, stacks + o.stacks);
        }
    }

    /**
     * The live-tracking bound of the capture and what it did: {@code keepProbability} the count-budget
     * admission (1: never thinned by count), {@code byteThinnings} the times the byte bound thinned the set,
     * {@code byteLevel} the size above which objects are kept with probability byteLevel/size (0: all),
     * {@code oversize} samples larger than the whole bound (never tracked), {@code releases} the times the heap
     * was critical and every tracked object not yet examined was let go ({@code releasedEntries} of them).
     */
    record Hold(double keepProbability, long thinnings, long byteThinnings, long byteThinnedEntries, long byteLevel, long oversize,
            long releases, long releasedEntries, double share, boolean strict, long byteBudget) {
        static final Hold NONE = new Hold(1, 0, 0, 0, 0, 0, 0, 0, 0, false, 0);

        /** Whether anything thinned the tracked set in this capture (a critical release is counted apart). */
        boolean thinned() {
            return keepProbability < 1 || thinnings > 0 || byteThinnings > 0 || byteLevel > 0;
        }
    }

    /**
     * Reads a heaptap JSON profile; a site is named by the first group of {@code site} matched against
     * "Class.method" of its stack's frames, innermost first (stacks matching none are left out).
     */
    @SuppressWarnings("unchecked")
    static CoverageReading parse(String json, Pattern site) {
        Map<String, Object> profile = (Map<String, Object>) JsonReader.parse(json);
        Map<String, Estimate> sites = new LinkedHashMap<>();
        Map<String, Estimate> allocated = new LinkedHashMap<>();
        for (Object o : (List<Object>) profile.get("sites")) {
            Map<String, Object> s = (Map<String, Object>) o;
            String name = siteOf((List<Object>) s.get("stack"), site);
            if (name == null) {
                continue;
            }
            allocated.merge(name, new Estimate(number(s, "estimatedBytes"), number(s, "estimatedBytesLow"), number(s, "estimatedBytesHigh"), 1),
                    Estimate::plus);
            if (!(s.get("live") instanceof Map<?, ?> live) || !(live.get("proven") instanceof Map<?, ?> proven)) {
                continue;
            }
            Estimate e = new Estimate(number(proven, "estimatedBytes"), number(proven, "estimatedBytesLow"),
                    number(proven, "estimatedBytesHigh"), 1);
            sites.merge(name, e, Estimate::plus);
        }
        Hold hold = Hold.NONE;
        if (profile.get("live") instanceof Map<?, ?> live) {
            Map<?, ?> h = live.get("hold") instanceof Map<?, ?> m ? m : Map.of();
            hold = new Hold(live.containsKey("keepProbability") ? number(live, "keepProbability") : 1, (long) number(live, "thinnings"),
                    (long) number(h, "byteThinnings"), (long) number(h, "byteThinnedEntries"), (long) number(h, "byteLevel"),
                    (long) number(h, "oversize"), (long) number(h, "releases"), (long) number(h, "releasedEntries"), number(h, "share"),
                    Boolean.TRUE.equals(h.get("strict")), (long) number(h, "byteBudget"));
        }
        return new CoverageReading(sites, allocated, hold);
    }

    /** The site's estimate, or {@link Estimate#NONE} when the profile has no proven live figure for it. */
    Estimate site(String name) {
        return sites.getOrDefault(name, Estimate.NONE);
    }

    /** The site's allocated bytes, or {@link Estimate#NONE} when the profile has no sample of it. */
    Estimate allocatedAt(String name) {
        return allocated.getOrDefault(name, Estimate.NONE);
    }

    private static double number(Map<?, ?> object, String key) {
        return object.get(key) instanceof JsonReader.Number n ? n.asDouble() : 0;
    }

    @SuppressWarnings("unchecked")
    private static String siteOf(List<Object> stack, Pattern site) {
        for (Object o : stack) {
            Map<String, Object> frame = (Map<String, Object>) o;
            Matcher m = site.matcher(frame.get("class") + "." + frame.get("method"));
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }
}
