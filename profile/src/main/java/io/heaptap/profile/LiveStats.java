package io.heaptap.profile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What a site (or type) holds alive, in two parts that are never added up silently:
 * <ul>
 * <li>{@link #proven()}: tracked objects still referenced after a whole-heap marking that began
 * after their allocation, so reachable when the collector last examined the whole heap;</li>
 * <li>{@link #unexamined()}: allocated since the last such marking. They may be garbage that only
 * young collections have passed over.</li>
 * </ul>
 * Objects not yet examined that heaptap's own weak reference may be keeping alive are not upscaled
 * at all ({@link #heldUnexamined()}): on G1 the reference blocks the eager reclaim of a humongous
 * object, and generational ZGC's minor collections leave JNI weak references alone, so the tracked
 * sample outlives the untracked objects it would stand for.
 *
 * <p>Ages and GCs survived are over every tracked object of the site; medians are weighted by the
 * objects each stands for, so they estimate the median over all live objects.
 *
 * @param tracked         tracked objects behind the figures (a count)
 * @param proven          the proven part
 * @param unexamined      the part not yet examined by a marking (upscaled; large objects left out)
 * @param heldUnexamined tracked objects not yet examined that tracking may hold, as they are: a count and their own bytes
 * <p>What live tracking's bound let go of the site ({@link LetGo}) widens the proven part's upper ends
 * ({@link Estimate#withLetGo}): those objects, if alive, are live whether or not a marking has examined
 * them since, and the proven part is the one every view reads as "live".
 *
 * @param provenMedianAge  median age of the proven objects (zero when none)
 * @param provenMaxAge     age of the oldest proven object (zero when none): what tells a leak from a cache
 * @param letGo            what the bound let go of the site ({@link LetGo#NONE} when nothing)
 * @param unexaminedOwnBytes the sizes, as they are, of the tracked objects not yet examined (held or not): what a census
 *                         that follows weak references counts of them
 */
public record LiveStats(long tracked, Part proven, Part unexamined, Part heldUnexamined, Duration minAge, Duration medianAge,
                        Duration maxAge, long minGcs, long medianGcs, long maxGcs, Duration provenMedianAge,
                        Duration provenMaxAge, LetGo letGo, long unexaminedOwnBytes) {

    /**
     * What live tracking's bound let go of one site (liveTable.h's SiteLetGo): the weight one more tracked
     * object would have carried where byte coins let objects go (the largest), and the weights of objects a
     * critical heap let go without compensation (summed).
     */
    public record LetGo(double unitObjects, double unitBytes, Estimate releasedObjects, Estimate releasedBytes) {
        public static final LetGo NONE = new LetGo(0, 0, Estimate.ZERO, Estimate.ZERO);

        public boolean any() {
            return unitBytes > 0 || unitObjects > 0 || releasedBytes.value() > 0 || releasedObjects.value() > 0;
        }
    }

    /**
     * One part of a live set.
     *
     * @param tracked tracked objects in it (a count)
     * @param objects estimated objects, with their uncertainty
     * @param bytes   estimated bytes, with their uncertainty
     */
    public record Part(long tracked, Estimate objects, Estimate bytes) {
        public static final Part NONE = new Part(0, Estimate.ZERO, Estimate.ZERO);

        public Part plus(Part other) {
            return new Part(tracked + other.tracked, objects.plus(other.objects), bytes.plus(other.bytes));
        }

        /** This part, its upper ends widened for what the bound let go ({@link Estimate#withLetGo}). */
        Part widenedFor(LetGo letGo) {
            return letGo.any() ? new Part(tracked, objects.withLetGo(letGo.unitObjects(), letGo.releasedObjects()),
                    bytes.withLetGo(letGo.unitBytes(), letGo.releasedBytes())) : this;
        }

        Part plus(TrackedObject o) {
            return new Part(tracked + 1, objects.plus(Estimate.objectsOf(o.objects())),
                    bytes.plus(Estimate.bytesOf(o.sizeBytes(), o.objects())));
        }

        Part plusAsIs(TrackedObject o) {
            return new Part(tracked + 1, objects.plus(new Estimate(1, 0)), bytes.plus(new Estimate(o.sizeBytes(), 0)));
        }
    }

    public static final LiveStats NONE = new LiveStats(0, Part.NONE, Part.NONE, Part.NONE, Duration.ZERO, Duration.ZERO,
            Duration.ZERO, 0, 0, 0, Duration.ZERO, Duration.ZERO, LetGo.NONE, 0);

    /** Nothing tracked and nothing let go: no live figure to show. */
    public boolean isEmpty() {
        return tracked == 0 && !letGo.any();
    }

    /**
     * The bound let go of every object it tracked of this site: its live figures are an upper end and nothing more
     * (what one more tracked object would have weighed, and what a critical heap released).
     */
    public boolean emptiedByBound() {
        return tracked == 0 && letGo.any();
    }

    /** Proven plus not yet examined (upscaled): what the weak references still point at, estimated. */
    public double estimatedBytes() {
        return proven.bytes().value() + unexamined.bytes().value();
    }

    public double estimatedObjects() {
        return proven.objects().value() + unexamined.objects().value();
    }

    public static LiveStats of(List<TrackedObject> objects) {
        return of(objects, LetGo.NONE);
    }

    /** The site's tracked objects, and what the bound let go of it. */
    public static LiveStats of(List<TrackedObject> objects, LetGo letGo) {
        if (objects.isEmpty()) {
            if (!letGo.any()) {
                return NONE;
            }
            return new LiveStats(0, Part.NONE.widenedFor(letGo), Part.NONE, Part.NONE, Duration.ZERO, Duration.ZERO, Duration.ZERO, 0, 0, 0, Duration.ZERO,
                    Duration.ZERO, letGo, 0);
        }
        Part proven = Part.NONE;
        Part unexamined = Part.NONE;
        Part large = Part.NONE;
        double weight = 0;
        double provenWeight = 0;
        long unexaminedOwnBytes = 0;
        List<TrackedObject> provenObjects = new ArrayList<>();
        for (TrackedObject o : objects) {
            if (o.proven()) {
                proven = proven.plus(o);
                provenObjects.add(o);
                provenWeight += o.objects();
            } else if (o.heldByTracking()) {
                large = large.plusAsIs(o);
                unexaminedOwnBytes += o.sizeBytes();
            } else {
                unexamined = unexamined.plus(o);
                unexaminedOwnBytes += o.sizeBytes();
            }
            weight += o.objects();
        }
        long[] age = minMedianMax(objects, TrackedObject::ageNanos, weight);
        long[] gcs = minMedianMax(objects, TrackedObject::gcsSurvived, weight);
        long[] provenAge = provenObjects.isEmpty() ? new long[3] : minMedianMax(provenObjects, TrackedObject::ageNanos, provenWeight);
        return new LiveStats(objects.size(), proven.widenedFor(letGo), unexamined, large, Duration.ofNanos(age[0]), Duration.ofNanos(age[1]),
                Duration.ofNanos(age[2]), gcs[0], gcs[1], gcs[2], Duration.ofNanos(provenAge[1]), Duration.ofNanos(provenAge[2]), letGo,
                unexaminedOwnBytes);
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
