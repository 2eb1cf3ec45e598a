package io.heaptap.session;

import io.heaptap.profile.HeapSizing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** Collectors whose counters and collections a test sets: what the platform MXBeans would say. */
final class FakeGcBeans implements GcBeans {
    private final Map<String, long[]> counters = new LinkedHashMap<>();
    private final List<Consumer<Collection>> listeners = new CopyOnWriteArrayList<>();
    volatile long processCpuNanos = 0;
    volatile RuntimeException broken;
    /** The heap after the last collections ({@link #heapAfterGc}), -1 unknown. */
    volatile long heapAfterGc = -1;
    /** Whether Shenandoah runs generational. */
    volatile boolean generationalShenandoah;

    FakeGcBeans(String... names) {
        for (String name : names) {
            counters.put(name, new long[] {0, 0});
        }
    }

    /** A collection by {@code bean} that took {@code millis}: its counters move and subscribers hear of it. */
    void collect(String bean, String cause, long millis, long heapBefore, long heapAfter) {
        collectSeveral(bean, cause, 1, millis, heapBefore, heapAfter);
    }

    /** {@code n} collections of {@code millis} each, of which subscribers hear as one standing for all (a poll's read). */
    synchronized void collectSeveral(String bean, String cause, int n, long millis, long heapBefore, long heapAfter) {
        long[] c = counters.get(bean);
        c[0] += n;
        c[1] += n * millis;
        Collection collection = new Collection(bean, cause, c[0], 1_000 * c[0], 1_000 * c[0] + millis, heapBefore, heapAfter, n);
        for (Consumer<Collection> listener : listeners) {
            listener.accept(collection);
        }
    }

    int subscribers() {
        return listeners.size();
    }

    @Override
    public synchronized List<String> names() {
        return List.copyOf(counters.keySet());
    }

    @Override
    public synchronized List<Counters> counters() {
        if (broken != null) {
            throw broken;
        }
        List<Counters> list = new ArrayList<>();
        counters.forEach((name, c) -> list.add(new Counters(name, c[0], c[1])));
        return list;
    }

    @Override
    public HeapSizing heap() {
        return new HeapSizing(64L << 20, 100L << 20, 256L << 20, 1L << 30);
    }

    @Override
    public boolean generationalShenandoah() {
        return generationalShenandoah;
    }

    @Override
    public long heapAfterGc() {
        return heapAfterGc;
    }

    @Override
    public long processCpuNanos() {
        return processCpuNanos;
    }

    @Override
    public long originNanos() {
        return 0;
    }

    @Override
    public Subscription subscribe(Consumer<Collection> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** As the platform's: only the collections of the beans it asks the JVM to notify. */
    @Override
    public Subscription subscribeWholeHeap(Consumer<Collection> listener) {
        Consumer<Collection> filtered = c -> {
            if (PlatformGcBeans.notified(c.gcName())) {
                listener.accept(c);
            }
        };
        return subscribe(filtered);
    }
}
