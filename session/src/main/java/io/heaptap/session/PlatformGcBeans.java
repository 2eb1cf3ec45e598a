package io.heaptap.session;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import com.sun.management.HotSpotDiagnosticMXBean;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.census.HeapSlack;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's own GC MXBeans, and one stream of collections for every subscriber, fed two ways while
 * anything is subscribed:
 * <ul>
 * <li>the beans whose collections bear on proven liveness ({@link MarkingClock.Kind} other than NONE:
 * full collections, whole-heap cycles, G1's concurrent pauses) notify one listener, which decodes each
 * collection once: the marking clock needs every one of them, with its start;</li>
 * <li>the other collections, young ones nearly all, are not notified: a thread of heaptap's reads those
 * beans' counts every {@link #POLL_MILLIS} ms and, when one grew, its last collection. Asking the JVM to
 * notify them cost the application more than heaptap's stack walks did (JDK 25, 13 GB/s: 2.2% of the
 * process's CPU on the JDK's notification thread, at every young collection, whatever the sample rate).
 * Several in one poll are reported as the last of them, standing for them all: the GC cost's heap around a
 * collection weighs it so.</li>
 * </ul>
 * The poll runs only while a subscriber wants every collection (the GC cost, during a capture). The live
 * tracking subscribes to the notified ones alone ({@link #subscribeWholeHeap}): it goes on after a capture
 * while tracked objects are kept, and a poll every 100 ms then cost 0.2-0.35% of a core of an application
 * heaptap was no longer profiling (JDK 25, 13 GB/s).
 */
final class PlatformGcBeans implements GcBeans, NotificationListener {
    /**
     * How often the beans that are not notified are read. A read that finds a collection costs about a
     * quarter to half a millisecond of CPU at 13-16 GB/s (JDK 25), most of it HotSpot's nmethod entry
     * barriers, re-armed by each GC, and such a target collects 25 times a second, so nearly every read
     * finds one. At 100 ms the poll was 0.14% of a two-core target's CPU (measured with perf), a fixed cost
     * beside a sample path of 0.27% per 1,000 samples/s; at 500 ms it is a fifth of that. What the
     * poll feeds, the GC cost's heap around a collection, is an average: one collection in every half
     * second, weighed as all it stands for, still gives a 10 s capture 20 of them.
     */
    static final long POLL_MILLIS = 500;
    /** HotSpot's defaults, percentages: the larger ZGC's (JDK 17's single generation; generational ZGC's is 5). */
    private static final double DEFAULT_MARK_SWEEP_DEAD_RATIO = 5;
    private static final double NON_GENERATIONAL_ZGC_FRAGMENTATION_LIMIT = 25;
    private static final double DEFAULT_ALWAYS_COMPACT_COUNT = 4;
    /** Serial's full collector's bean. */
    private static final String SERIAL_FULL = "MarkSweepCompact";

    private static final Path PROC_SELF = Path.of("/proc/self");
    private final List<Consumer<Collection>> listeners = new CopyOnWriteArrayList<>();
    /** Those that need only the notified collections ({@link #subscribeWholeHeap}): no poll runs for them. */
    private final List<Consumer<Collection>> wholeHeapListeners = new CopyOnWriteArrayList<>();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private ScheduledExecutorService poller;

    @Override
    public List<String> names() {
        return GcBeanList.BEANS.stream().map(GarbageCollectorMXBean::getName).toList();
    }

    @Override
    public boolean generationalShenandoah() {
        return GcBeanList.GENERATIONAL_SHENANDOAH;
    }

    @Override
    public List<Counters> counters() {
        List<Counters> counters = new ArrayList<>();
        for (GarbageCollectorMXBean gc : GcBeanList.BEANS) {
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
    public long heapAfterGc() {
        long used = 0;
        boolean any = false;
        for (MemoryPoolMXBean pool : HeapPools.BEANS) {
            MemoryUsage after = pool.getCollectionUsage();
            if (after != null) {
                used += after.getUsed();
                any = true;
            }
        }
        // Generational ZGC's old pool reports its usage at some point of the cycle, before relocation frees the
        // garbage (measured, JDK 25: 208 MiB after System.gc() with 100 MiB live): the heap in use now, which only
        // grows after a collection, caps it, so a heap with room is never called critical.
        return any ? Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()) : -1;
    }

    @Override
    public HeapSlack slack() {
        if (names().stream().anyMatch(n -> n.startsWith("ZGC"))) {
            return new HeapSlack(0, vmOption("ZFragmentationLimit", NON_GENERATIONAL_ZGC_FRAGMENTATION_LIMIT) / 100, 0);
        }
        if (collectsConcurrently()) {
            return HeapSlack.NONE;
        }
        return new HeapSlack(vmOption("MarkSweepDeadRatio", DEFAULT_MARK_SWEEP_DEAD_RATIO) / 100, 0,
                GcBeanList.SERIAL_FULL_COMPACTION_EVERY);
    }

    @Override
    public boolean lastWholeHeapCompactedFully() {
        int every = GcBeanList.SERIAL_FULL_COMPACTION_EVERY;
        if (every <= 0) {
            return false;
        }
        for (GarbageCollectorMXBean gc : GcBeanList.BEANS) {
            if (gc.getName().equals(SERIAL_FULL) && gc instanceof com.sun.management.GarbageCollectorMXBean readable) {
                // Serial counts its full collections from 1 and leaves no dead space at every every-th (HotSpot's
                // DeadSpacer: total_invocations % MarkSweepAlwaysCompactCount == 0); the bean numbers them alike.
                GcInfo info = readable.getLastGcInfo();
                return info != null && info.getId() % every == 0;
            }
        }
        return false;
    }

    /** A numeric VM option's value, or {@code otherwise} on a JVM without it. */
    private static double vmOption(String name, double otherwise) {
        try {
            return Double.parseDouble(vmOption(name, Double.toString(otherwise)));
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** A VM option's value, or {@code otherwise} on a JVM without it. */
    private static String vmOption(String name, String otherwise) {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name).getValue();
        } catch (RuntimeException e) {  // IllegalArgumentException: no such option
            return otherwise;
        }
    }

    @Override
    public long heapAfterWholeHeapCollection() {
        GcInfo last = null;
        for (GarbageCollectorMXBean gc : GcBeanList.BEANS) {
            if (MarkingClock.Kind.ofBean(gc.getName()) == MarkingClock.Kind.WHOLE_HEAP
                    && gc instanceof com.sun.management.GarbageCollectorMXBean readable) {
                GcInfo info = readable.getLastGcInfo();
                if (info != null && (last == null || info.getEndTime() > last.getEndTime())) {
                    last = info;
                }
            }
        }
        if (last == null) {
            return heapAfterGc();
        }
        return Math.min(heapUsed(last.getMemoryUsageAfterGc()), ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }

    @Override
    public long processCpuNanos() {
        return GcThreadCpu.processCpuNanos(PROC_SELF).orElse(-1);
    }

    @Override
    public long originNanos() {
        return System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(ManagementFactory.getRuntimeMXBean().getUptime() + 1);
    }

    @Override
    public Subscription subscribe(Consumer<Collection> listener) {
        return subscribe(listener, listeners);
    }

    @Override
    public Subscription subscribeWholeHeap(Consumer<Collection> listener) {
        return subscribe(listener, wholeHeapListeners);
    }

    private Subscription subscribe(Consumer<Collection> listener, List<Consumer<Collection>> to) {
        synchronized (emitters) {
            try {
                if (listeners.isEmpty() && wholeHeapListeners.isEmpty()) {
                    for (GarbageCollectorMXBean gc : GcBeanList.BEANS) {
                        if (notified(gc.getName()) && gc instanceof NotificationEmitter emitter) {
                            emitter.addNotificationListener(this, null, null);
                            emitters.add(emitter);
                        }
                    }
                }
                if (to == listeners && listeners.isEmpty()) {
                    startPoll();
                }
            } catch (RuntimeException e) {
                if (listeners.isEmpty() && wholeHeapListeners.isEmpty()) {
                    stopFeeding();  // none half-registered: the next subscription would hear each collection twice
                }
                throw e;
            }
            to.add(listener);
        }
        return () -> unsubscribe(listener, to);
    }

    private void startPoll() {
        List<com.sun.management.GarbageCollectorMXBean> polled = new ArrayList<>();
        for (GarbageCollectorMXBean gc : GcBeanList.BEANS) {
            if (polled(gc.getName()) && gc instanceof com.sun.management.GarbageCollectorMXBean readable) {
                polled.add(readable);
            }
        }
        if (!polled.isEmpty()) {
            poller = Executors.newSingleThreadScheduledExecutor(PlatformGcBeans::pollThread);
            poller.scheduleWithFixedDelay(new Poll(polled), POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void unsubscribe(Consumer<Collection> listener, List<Consumer<Collection>> from) {
        synchronized (emitters) {
            if (!from.remove(listener)) {
                return;
            }
            if (listeners.isEmpty()) {
                stopPoll();
            }
            if (listeners.isEmpty() && wholeHeapListeners.isEmpty()) {
                stopFeeding();
            }
        }
    }

    /** Whether the JVM is asked to notify this bean's collections: those that can prove liveness. */
    static boolean notified(String beanName) {
        return MarkingClock.Kind.ofBean(beanName) != MarkingClock.Kind.NONE;
    }

    /** Whether this bean's collections are read by the poll: the others that count collections (pauses within cycles: nobody needs them). */
    static boolean polled(String beanName) {
        return !notified(beanName) && CollectorCost.Kind.ofBean(beanName).countsCollections();
    }

    private static Thread pollThread(Runnable poll) {
        Thread thread = new Thread(NativeAgent.heaptapThread(poll), "heaptap-gc-poll");
        thread.setDaemon(true);
        return thread;
    }

    private void stopPoll() {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
    }

    private void stopFeeding() {
        stopPoll();
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
            deliver(collection, listeners);
            deliver(collection, wholeHeapListeners);
        }
    }

    private static void deliver(Collection collection, List<Consumer<Collection>> to) {
        if (collection == null) {
            return;
        }
        for (Consumer<Collection> listener : to) {
            try {
                listener.accept(collection);
            } catch (RuntimeException e) {
                // one subscriber's failure costs it this collection, never another subscriber's
            }
        }
    }

    /**
     * One read of the beans that are not notified: the last collection of each whose count grew since the
     * previous read (the counts when the subscription began are the first). Runs on heaptap's poll thread,
     * or on a test's.
     */
    final class Poll implements Runnable {
        private final List<com.sun.management.GarbageCollectorMXBean> beans;
        private final long[] counts;

        Poll(List<com.sun.management.GarbageCollectorMXBean> beans) {
            this.beans = List.copyOf(beans);
            this.counts = new long[beans.size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = beans.get(i).getCollectionCount();
            }
        }

        @Override
        public synchronized void run() {
            try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
                for (int i = 0; i < counts.length; i++) {
                    com.sun.management.GarbageCollectorMXBean bean = beans.get(i);
                    long count = bean.getCollectionCount();
                    if (count > counts[i]) {
                        long stands = count - counts[i];
                        counts[i] = count;
                        deliver(last(bean, stands), listeners);
                    }
                }
            } catch (RuntimeException e) {
                // a read that fails costs these collections' figures; the next read tries again
            }
        }
    }

    /**
     * The bean's last collection, standing for {@code stands} (the GC cost weighs its heap figures so), or
     * null if it reports none heaptap can read. The cause is not kept there: "".
     */
    private static Collection last(com.sun.management.GarbageCollectorMXBean bean, long stands) {
        GcInfo info = bean.getLastGcInfo();
        if (info == null) {
            return null;
        }
        return collection(bean.getName(), "", info, stands);
    }

    private static Collection collection(String gcName, String cause, GcInfo info, long stands) {
        return new Collection(gcName, cause, info.getId(), info.getStartTime(), info.getEndTime(),
                heapUsed(info.getMemoryUsageBeforeGc()), heapUsed(info.getMemoryUsageAfterGc()), stands);
    }

    /** The collection a notification reports, or null if it reports none heaptap can read. */
    private static Collection decode(Notification notification) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())
                || !(notification.getUserData() instanceof CompositeData data)) {
            return null;
        }
        try {
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(data);
            return collection(info.getGcName(), info.getGcCause(), info.getGcInfo(), 1);
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

    /**
     * The GC beans, looked up once (the JVM's collectors never change): each lookup builds new bean
     * objects through JNI, which cost the poll more than all else it did (JDK 25: 0.9 ms a read).
     */
    private static final class GcBeanList {
        static final List<GarbageCollectorMXBean> BEANS = List.copyOf(ManagementFactory.getGarbageCollectorMXBeans());
        // No such option: a JDK whose Shenandoah has one mode of marking.
        static final boolean GENERATIONAL_SHENANDOAH = BEANS.stream().anyMatch(b -> b.getName().equals("Shenandoah Cycles"))
                && vmOption("ShenandoahGCMode", "").equals("generational");
        /** Serial's {@code MarkSweepAlwaysCompactCount} (not manageable: fixed for the JVM's life); 0 on other collectors. */
        static final int SERIAL_FULL_COMPACTION_EVERY = BEANS.stream().anyMatch(b -> b.getName().equals(SERIAL_FULL))
                ? (int) vmOption("MarkSweepAlwaysCompactCount", DEFAULT_ALWAYS_COMPACT_COUNT) : 0;
    }

    /** The heap's pool names, looked up once: asking the MXBeans at every collection allocates a lot. */
    private static final class HeapPools {
        static final List<MemoryPoolMXBean> BEANS = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()).toList();
        static final List<String> NAMES = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).toList();
    }
}
