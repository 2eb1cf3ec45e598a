package io.heaptap.session;

import com.sun.management.GarbageCollectionNotificationInfo;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.profile.HeapSizing;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's own GC MXBeans. One listener on their notifications, registered while anything is
 * subscribed, decodes each collection once for every subscriber (the GC cost and the live tracking
 * each decoded it before: the decoding allocates in the target, on the JDK's notification thread).
 */
final class PlatformGcBeans implements GcBeans, NotificationListener {
    private final List<Consumer<Collection>> listeners = new CopyOnWriteArrayList<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();

    @Override
    public List<String> names() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList();
    }

    @Override
    public List<Counters> counters() {
        List<Counters> counters = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            counters.add(new Counters(gc.getName(), gc.getCollectionCount(), gc.getCollectionTime()));
        }
        return counters;
    }

    @Override
    public HeapSizing heap() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new HeapSizing(heap.getInit(), heap.getUsed(), heap.getCommitted(), heap.getMax());
    }

    @Override
    public long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    @Override
    public long originNanos() {
        return System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(ManagementFactory.getRuntimeMXBean().getUptime() + 1);
    }

    @Override
    public Subscription subscribe(Consumer<Collection> listener) {
        synchronized (emitters) {
            if (listeners.isEmpty()) {
                try {
                    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                        if (gc instanceof NotificationEmitter emitter) {
                            emitter.addNotificationListener(this, null, null);
                            emitters.add(emitter);
                        }
                    }
                } catch (RuntimeException e) {
                    removeFromEmitters();  // none half-registered: the next subscription would hear each collection twice
                    throw e;
                }
            }
            listeners.add(listener);
        }
        return () -> unsubscribe(listener);
    }

    private void unsubscribe(Consumer<Collection> listener) {
        synchronized (emitters) {
            if (listeners.remove(listener) && listeners.isEmpty()) {
                removeFromEmitters();
            }
        }
    }

    private void removeFromEmitters() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // already gone
            }
        }
        emitters.clear();
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        // Runs on the JDK's notification thread: what it allocates here is heaptap's, not the application's.
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            Collection collection = decode(notification);
            if (collection != null) {
                for (Consumer<Collection> listener : listeners) {
                    try {
                        listener.accept(collection);
                    } catch (RuntimeException e) {
                        // one subscriber's failure costs it this collection, never another subscriber's
                    }
                }
            }
        }
    }

    /** The collection a notification reports, or null if it reports none heaptap can read. */
    private static Collection decode(Notification notification) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())
                || !(notification.getUserData() instanceof CompositeData data)) {
            return null;
        }
        try {
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(data);
            return new Collection(info.getGcName(), info.getGcCause(), info.getGcInfo().getId(), info.getGcInfo().getStartTime(),
                    info.getGcInfo().getEndTime(), heapUsed(info.getGcInfo().getMemoryUsageBeforeGc()),
                    heapUsed(info.getGcInfo().getMemoryUsageAfterGc()));
        } catch (RuntimeException e) {
            return null;  // a notification heaptap cannot read proves nothing and costs one data point
        }
    }

    /** The notification lists every memory pool, Metaspace and code cache too: only the heap's count. */
    private static long heapUsed(Map<String, MemoryUsage> pools) {
        long used = 0;
        for (String heapPool : HeapPools.NAMES) {
            MemoryUsage usage = pools.get(heapPool);
            if (usage != null) {
                used += usage.getUsed();
            }
        }
        return used;
    }

    /** The heap's pool names, looked up once: asking the MXBeans at every collection allocates a lot. */
    private static final class HeapPools {
        static final List<String> NAMES = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).toList();
    }
}
