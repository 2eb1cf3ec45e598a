package io.heaptap.session;

import com.sun.management.GarbageCollectionNotificationInfo;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.Sampler;
import io.heaptap.profile.CollectorCost;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Keeps the live table clean, its GC clock right, and the {@link MarkingClock} fed. GC callbacks may not use JNI, so weak
 * references of collected objects are deleted here, on the daemon thread {@code heaptap-live},
 * right after each collection. The GC count comes from the GC MXBeans' notifications, which every
 * HotSpot collector sends (ZGC and Shenandoah post no JVMTI GC events).
 */
final class LiveTracker implements NotificationListener {
    /**
     * Also clean now and then without a GC, so thinned entries' references do not wait long, and read
     * JDK 11-19 G1's concurrent pauses (their times are known only to within two readings).
     */
    static final long IDLE_CLEAN_MILLIS = 1000;

    private final Sampler agent;
    private final Semaphore collections = new Semaphore(0);
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private Thread thread;
    private volatile MarkingClock markings = new MarkingClock();
    private volatile G1ConcurrentPauses g1Pauses;  // JDK 11-19's G1 only

    LiveTracker(Sampler agent) {
        this.agent = agent;
    }

    synchronized void start() {
        if (thread != null) {
            return;
        }
        MarkingClock clock = new MarkingClock();
        List<String> beans = ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList();
        g1Pauses = G1ConcurrentPauses.needed(beans) ? new G1ConcurrentPauses(LiveTracker::gcCount, agent::gcFinishes, System::nanoTime, clock) : null;
        markings = clock;
        countG1Pauses();  // the first reading: pauses before it prove nothing of this clock's
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
        agent.setGcCount(gcCount());
        thread = new Thread(NativeAgent.heaptapThread(this::run), "heaptap-live");
        thread.setDaemon(true);
        thread.start();
    }

    synchronized void stop() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // already gone
            }
        }
        emitters.clear();
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())
                && notification.getUserData() instanceof CompositeData data) {
            // On the JDK's notification thread: reading the collection allocates, and that is heaptap's.
            try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
                agent.setGcCount(gcCount());
                try {
                    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(data);
                    markings.onCollection(info.getGcName(), info.getGcCause(), info.getGcInfo().getId(),
                            info.getGcInfo().getStartTime(), info.getGcInfo().getEndTime());
                } catch (RuntimeException e) {
                    // a notification heaptap cannot read proves nothing: the clock stays where it was
                }
                countG1Pauses();
                collections.release();
            }
        }
    }

    /**
     * The liveness-proof clock of the current tracking (a new one after each reset), up to date: on
     * JDK 11-19's G1 the concurrent pauses since the last collection's notification are counted first.
     */
    MarkingClock markings() {
        countG1Pauses();
        return markings;
    }

    private void countG1Pauses() {
        G1ConcurrentPauses pauses = g1Pauses;
        if (pauses != null) {
            pauses.update();
        }
    }

    private void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                collections.tryAcquire(IDLE_CLEAN_MILLIS, TimeUnit.MILLISECONDS);
                collections.drainPermits();
                agent.maintainLive();
                countG1Pauses();  // at least once a second: a concurrent pause's lower bound is never older than that
            }
        } catch (InterruptedException e) {
            // stop() asked us to end
        }
    }

    /**
     * Collections so far: the cycles of every collector, without the "Pauses" beans of ZGC and
     * Shenandoah and G1's "Concurrent GC" bean, which count pauses within those cycles again.
     */
    static long gcCount() {
        long count = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (CollectorCost.Kind.ofBean(gc.getName()).countsCollections()) {
                count += Math.max(0, gc.getCollectionCount());
            }
        }
        return count;
    }
}
