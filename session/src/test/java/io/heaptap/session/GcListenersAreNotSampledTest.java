package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.GarbageCollectionNotificationInfo;

import io.heaptap.nativeagent.LiveProof;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.NativeSnapshot;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveFilter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.management.Notification;

import org.junit.jupiter.api.Test;

/**
 * heaptap's GC-notification listeners run on the JDK's notification thread, which is not
 * heaptap's: what they allocate must never be sampled as the application's. It was, now and then
 * (HttpIT at a 64 KiB interval): the mark was allocated before it took effect. Here the listeners
 * run on this unmarked thread with every allocation sampled, so a single allocation before the
 * mark is certain to show.
 */
class GcListenersAreNotSampledTest {
    static volatile Object sink;

    @Test
    void whatTheGcListenersAllocateIsNotSampled() throws Exception {
        NativeAgent agent = NativeAgent.get();
        LiveTracker tracker = new LiveTracker(agent);
        GcMonitor monitor = new GcMonitor();
        Notification gc = new Notification(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION, this, 1);
        agent.start(1, Duration.ofMinutes(1), 64, 1024, 0, 0, 2);
        for (int i = 0; i < 4096; i++) {
            sink = new byte[1024];  // past the sample point the JVM drew at its default interval
        }
        for (int i = 0; i < 1000; i++) {
            tracker.handleNotification(gc, null);
            monitor.handleNotification(gc, null);
        }
        sink = new long[4];  // the application's: sampled
        NativeSnapshot snapshot;
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            agent.stop();
            snapshot = agent.snapshot(LiveFilter.NONE, LiveProof.NONE);
            agent.clear();
        }
        assertTrue(snapshot.sites().stream().anyMatch(s -> s.type().equals("long[]")), "sampling works");
        List<String> heaptaps = new ArrayList<>();
        for (AllocationSite site : snapshot.sites()) {
            for (Frame f : site.stack()) {
                if (f.className().startsWith("io.heaptap.") && !f.className().equals(getClass().getName())) {
                    heaptaps.add(site.type() + " at " + f.displayName());
                }
            }
        }
        assertTrue(heaptaps.isEmpty(), "heaptap's own allocations were sampled: " + heaptaps);
    }
}
