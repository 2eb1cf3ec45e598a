package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.GarbageCollectionNotificationInfo;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveFilter;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;

import io.heaptap.profile.CollectorCost;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import org.junit.jupiter.api.Test;

/**
 * heaptap's GC-notification listeners run on the JDK's notification thread, which is not
 * heaptap's: what they allocate must never be sampled as the application's (nor what the young
 * collections' poll allocates, run here on this thread too). It was, now and then
 * (HttpIT at a 64 KiB interval): the mark was allocated before it took effect. Here the listeners
 * run on this unmarked thread with every allocation sampled, so a single allocation before the
 * mark is certain to show.
 */
class GcListenersAreNotSampledTest {
    static volatile Object sink;

    @Test
    void whatTheGcListenersAllocateIsNotSampled() throws Exception {
        NativeAgent agent = NativeAgent.get();
        PlatformGcBeans beans = new PlatformGcBeans();
        LiveTracker tracker = new LiveTracker(agent, beans);
        GcMonitor monitor = new GcMonitor(beans);
        monitor.start(Runnable::run);
        GcBeans.Subscription tracking = beans.subscribe(tracker::onCollection);
        Notification gc = realCollection();  // replayed below on this thread, decoded in full each time
        List<PlatformGcBeans.Poll> polls = new ArrayList<>();
        List<com.sun.management.GarbageCollectorMXBean> young = PlatformGcBeansTest.polledBeans();
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            for (int i = 0; i < 1000; i++) {
                polls.add(beans.new Poll(young));  // each one then finds a collection since it began
            }
        }
        PlatformGcBeansTest.youngCollection(young);
        agent.start(SamplerSettings.withoutLargeStratum(1, Duration.ofMinutes(1), 64, 1024, 0));
        for (int i = 0; i < 32 * 1024; i++) {
            // Past the sample point the JVM drew at its default interval, and past this thread's TLAB, which
            // predates sampling and holds no sample point (G1 hands out TLABs of up to half a region).
            sink = new byte[1024];
        }
        for (int i = 0; i < 1000; i++) {
            beans.handleNotification(gc, null);
        }
        for (PlatformGcBeans.Poll poll : polls) {
            poll.run();  // the young collections' path, read and decoded on this thread
        }
        sink = new long[4];  // the application's: sampled
        NativeSnapshot snapshot;
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            tracking.close();  // the session's own calls, marked as heaptap's there too
            monitor.stop();
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
        assertTrue(tracker.markings().completed() >= 1000, "the replayed System.gc() reached the marking clock");
        assertTrue(monitor.cost().heapAround().collections() >= 2000, "the replayed and the polled collections reached the GC cost");
    }

    /** A notification the JVM sent for a real collection (System.gc(): a whole-heap marking on every collector here). */
    private static Notification realCollection() throws Exception {
        CompletableFuture<Notification> sent = new CompletableFuture<>();
        List<NotificationEmitter> emitters = new ArrayList<>();
        NotificationListener listener = (n, handback) -> {
            if (n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)
                    && CollectorCost.Kind.ofBean(GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcName())
                            .countsCollections()) {
                sent.complete(n);
            }
        };
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
        try {
            System.gc();
            return sent.get(1, TimeUnit.MINUTES);
        } finally {
            for (NotificationEmitter emitter : emitters) {
                emitter.removeNotificationListener(listener);
            }
        }
    }
}
