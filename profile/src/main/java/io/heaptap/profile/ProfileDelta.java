package io.heaptap.profile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a running capture allocated between two of its profiles, as Go's {@code ?seconds=N}
 * heap and allocs endpoints return it: allocation figures are the difference, the live set is the
 * later profile's (in-use is a state, not a flow).
 */
public final class ProfileDelta {
    private ProfileDelta() {
    }

    /** {@code after} minus {@code before}; both come from the same capture, {@code before} first. */
    public static AllocationProfile between(AllocationProfile before, AllocationProfile after) {
        Map<SiteKey, AllocationSite> earlier = new HashMap<>();
        for (AllocationSite s : before.sites()) {
            earlier.put(SiteKey.of(s), s);
        }
        List<AllocationSite> sites = new ArrayList<>();
        for (AllocationSite s : after.sites()) {
            AllocationSite b = earlier.get(SiteKey.of(s));
            if (b == null) {
                sites.add(s);
            } else {
                // Counters only grow within a capture; max() guards against rounding in the estimates.
                sites.add(new AllocationSite(s.stack(), s.truncated(), s.type(), Math.max(0, s.samples() - b.samples()),
                        Math.max(0, s.estimatedObjects() - b.estimatedObjects()),
                        Math.max(0, s.estimatedBytes() - b.estimatedBytes()),
                        Math.max(0, s.objectsVariance() - b.objectsVariance()), Math.max(0, s.bytesVariance() - b.bytesVariance()),
                        s.live()));
            }
        }
        CaptureInfo a = after.info();
        CaptureInfo b = before.info();
        Instant windowStart = b.startedAt().plusNanos(b.durationNanos());
        CaptureInfo window = new CaptureInfo(a.target(), windowStart, Math.max(0, a.durationNanos() - b.durationNanos()),
                a.intervalBytes(), a.stackDepth(), Math.max(0, a.samples() - b.samples()), a.drops(), a.warnings(),
                a.gc().since(b.gc()), a.intervals());
        return new AllocationProfile(window, after.liveInfo(), sites);
    }

    private record SiteKey(List<Frame> stack, boolean truncated, String type) {
        static SiteKey of(AllocationSite s) {
            return new SiteKey(s.stack(), s.truncated(), s.type());
        }
    }
}
