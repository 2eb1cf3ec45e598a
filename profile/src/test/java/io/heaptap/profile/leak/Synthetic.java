package io.heaptap.profile.leak;

import io.heaptap.profile.Frame;

import java.util.List;
import java.util.Random;

/** Series with a known ground truth, with Poisson-like noise on the estimates, for the classifier's tests. */
final class Synthetic {
    static final long EVERY = 5_000;
    static final long GC_EVERY = 400;
    static final double MB = 1 << 20;

    private Synthetic() {
    }

    static SiteKey key(String name) {
        return new SiteKey(List.of(new Frame("test.Workload", name, "Workload.java", 1)), false, "byte[]");
    }

    static long gcs(long atMillis) {
        return atMillis / GC_EVERY;
    }

    /** Noise of an estimate built from about {@code samples} samples. */
    static double noisy(Random random, double value, double samples) {
        return samples <= 0 ? value : Math.max(0, value * (1 + random.nextGaussian() / Math.sqrt(samples)));
    }

    /** Keeps every object it allocates: {@code bytesPerSecond} from the start of the watch. */
    static SiteSeries leak(Random random, int points, double bytesPerSecond, double samplesPerMb) {
        SiteSeries s = new SiteSeries(key("leak"), 0, 0, 120);
        for (int i = 1; i <= points; i++) {
            long at = i * EVERY;
            double live = bytesPerSecond * at / 1000;
            s.add(new SitePoint(at, (long) (live / MB * samplesPerMb) + 1, live / 1000, noisy(random, live, live / MB * samplesPerMb),
                    at / 2, at - random.nextInt(1500), gcs(at / 2), bytesPerSecond * EVERY / 1000 / 1000,
                    noisy(random, bytesPerSecond * EVERY / 1000, 10), gcs(at)));
        }
        return s;
    }

    /** Holds {@code bytes}, replaced in full every {@code periodMillis}. */
    static SiteSeries cache(Random random, int points, double bytes, long periodMillis, double samplesPerMb) {
        SiteSeries s = new SiteSeries(key("cache"), 0, 0, 120);
        for (int i = 1; i <= points; i++) {
            long at = i * EVERY;
            double allocated = bytes * EVERY / periodMillis;
            s.add(new SitePoint(at, (long) (bytes / MB * samplesPerMb), bytes / 1000, noisy(random, bytes, bytes / MB * samplesPerMb),
                    periodMillis / 2, periodMillis - random.nextInt((int) periodMillis / 4), gcs(periodMillis / 2),
                    allocated / 1000, allocated, gcs(at)));
        }
        return s;
    }

    /** Built once at {@code builtAt} and kept. */
    static SiteSeries kept(int points, double bytes, long builtAt) {
        long windowStart = builtAt / EVERY * EVERY;
        SiteSeries s = new SiteSeries(key("kept"), windowStart, gcs(windowStart), 120);
        for (long at = windowStart + EVERY; at <= points * EVERY; at += EVERY) {
            boolean first = at == windowStart + EVERY;
            s.add(new SitePoint(at, (long) (bytes / MB * 2), bytes / 1000, bytes, at - builtAt, at - builtAt, gcs(at - builtAt),
                    first ? bytes / 1000 : 0, first ? bytes : 0, gcs(at)));
        }
        return s;
    }

    /** Allocates {@code bytesPerSecond} that dies at the next collection. */
    static SiteSeries garbage(Random random, int points, double bytesPerSecond) {
        SiteSeries s = new SiteSeries(key("garbage"), 0, 0, 120);
        for (int i = 1; i <= points; i++) {
            long at = i * EVERY;
            double live = bytesPerSecond * random.nextDouble() * GC_EVERY / 1000;
            s.add(new SitePoint(at, (long) (live / MB * 2) + 1, live / 1000, live, random.nextInt((int) GC_EVERY / 2),
                    random.nextInt((int) GC_EVERY * 2), random.nextInt(20) == 0 ? 1 : 0, bytesPerSecond * EVERY / 1000 / 1000,
                    bytesPerSecond * EVERY / 1000, gcs(at)));
        }
        return s;
    }
}
