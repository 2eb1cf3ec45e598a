package io.heaptap.profile.leak;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;

import java.util.List;

/**
 * What makes an allocation site the same site from one snapshot to the next: its stack (as cut
 * at the capture's depth) and the allocated type. Counters and the live set vary; this does not.
 */
public record SiteKey(List<Frame> stack, boolean truncated, String type) {

    public SiteKey {
        stack = List.copyOf(stack);
    }

    public static SiteKey of(AllocationSite site) {
        return new SiteKey(site.stack(), site.truncated(), site.type());
    }

    /** {@code com.example.Cache.put(Cache.java:42)}: the allocating frame, or {@code [no-stack]}. */
    public String allocatedAt() {
        return AllocationSite.allocatedAt(stack);
    }
}
