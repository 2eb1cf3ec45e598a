package io.heaptap.profile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What a site (or type) holds alive: estimates of live objects and bytes, and the age and GCs
 * survived of its tracked objects. Medians are weighted by the objects each tracked object
 * stands for, so they estimate the median over all live objects; min and max are over the
 * tracked sample.
 *
 * @param tracked          tracked objects behind the figures (a count)
 * @param estimatedObjects estimated live objects
 * @param estimatedBytes   estimated live bytes
 */
public record LiveStats(long tracked, double estimatedObjects, double estimatedBytes, Duration minAge, Duration medianAge,
                        Duration maxAge, long minGcs, long medianGcs, long maxGcs) {

    public static final LiveStats NONE = new LiveStats(0, 0, 0, Duration.ZERO, Duration.ZERO, Duration.ZERO, 0, 0, 0);

    public boolean isEmpty() {
        return tracked == 0;
    }

    public static LiveStats of(List<TrackedObject> objects) {
        if (objects.isEmpty()) {
            return NONE;
        }
        double liveObjects = 0;
        double liveBytes = 0;
        for (TrackedObject o : objects) {
            liveObjects += o.objects();
            liveBytes += o.bytes();
        }
        long[] age = minMedianMax(objects, TrackedObject::ageNanos, liveObjects);
        long[] gcs = minMedianMax(objects, TrackedObject::gcsSurvived, liveObjects);
        return new LiveStats(objects.size(), liveObjects, liveBytes, Duration.ofNanos(age[0]), Duration.ofNanos(age[1]),
                Duration.ofNanos(age[2]), gcs[0], gcs[1], gcs[2]);
    }

    private static long[] minMedianMax(List<TrackedObject> objects, ToLongFunction<TrackedObject> key, double total) {
        List<TrackedObject> sorted = new ArrayList<>(objects);
        sorted.sort(Comparator.comparingLong(key));
        double half = total / 2;
        double seen = 0;
        long median = key.applyAsLong(sorted.get(sorted.size() - 1));
        for (TrackedObject o : sorted) {
            seen += o.objects();
            if (seen >= half) {
                median = key.applyAsLong(o);
                break;
            }
        }
        return new long[] {key.applyAsLong(sorted.get(0)), median, key.applyAsLong(sorted.get(sorted.size() - 1))};
    }
}
