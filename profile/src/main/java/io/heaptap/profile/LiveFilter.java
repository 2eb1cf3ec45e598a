package io.heaptap.profile;

import java.time.Duration;

/**
 * Leaves young objects out of the live view: garbage not yet collected looks live until the next
 * GC, so "at least 1 GC survived" or "older than 10s" shows what is really retained.
 *
 * @param minAge minimum age of an object to be counted
 * @param minGcs minimum collections survived to be counted
 */
public record LiveFilter(Duration minAge, long minGcs) {
    public static final LiveFilter NONE = new LiveFilter(Duration.ZERO, 0);

    public LiveFilter {
        if (minAge.isNegative()) {
            throw new IllegalArgumentException("min age must not be negative");
        }
        if (minGcs < 0) {
            throw new IllegalArgumentException("min GCs must not be negative");
        }
    }

    public boolean accepts(TrackedObject o) {
        return o.ageNanos() >= minAge.toNanos() && o.gcsSurvived() >= minGcs;
    }

    public boolean isNone() {
        return minAge.isZero() && minGcs == 0;
    }
}
