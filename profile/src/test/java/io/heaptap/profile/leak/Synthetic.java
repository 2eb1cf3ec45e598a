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

    /** The variance of an estimate of {@code value} built from about {@code samples} samples. */
    static double variance(double value, double samples) {
        return samples <= 0 ? 0 : value * value / samples;
    }

    /** Noise of an estimate built from about {@code samples} samples. */
    static double noisy(Random random, double value, double samples) {
        return samples <= 0 ? value : Math.max(0, value * (1 + random.nextGaussian() / Math.sqrt(samples)));
    }

    /**
     * Keeps every object it allocates: {@code bytesPerSecond} from the start of the watch. Every series
     * here has a whole-heap marking right before each snapshot (as with {@code --gc}): everything
     * live is proven, nothing is left unexamined.
     */
    static SiteSeries leak(Random random, int points, double bytesPerSecond, double samplesPerMb) {
        SiteSeries s = new SiteSeries(key("leak"), 0, 0, 0, 120);
        for (int i = 1; i <= points; i++) {
            long at = i * EVERY;
            double live = bytesPerSecond * at / 1000;
            double samples = live / MB * samplesPerMb;
            s.add(new SitePoint(at, (long) samples + 1, (long) samples + 1, live / 1000, noisy(random, live, samples),
                    variance(live, samples), 0, at / 2, at - random.nextInt(1500), gcs(at / 2), bytesPerSecond * EVERY / 1000 / 1000,
                    noisy(random, bytesPerSecond * EVERY / 1000, 10), gcs(at), i, 50));
        }
        return s;
    }

    /** Holds {@code bytes}, replaced in full every {@code periodMillis}. */
    static SiteSeries cache(Random random, int points, double bytes, long periodMillis, double samplesPerMb) {
        SiteSeries s = new SiteSeries(key("cache"), 0, 0, 0, 120);
        for (int i = 1; i <= points; i++) {
            long at = i * EVERY;
            double allocated = bytes * EVERY / periodMillis;
            double samples = bytes / MB * samplesPerMb;
            s.add(new SitePoint(at, (long) samples, (long) samples, bytes / 1000, noisy(random, bytes, samples), variance(bytes, samples),
                    0, periodMillis / 2, periodMillis - random.nextInt((int) periodMillis / 4), gcs(periodMillis / 2),
                    allocated / 1000, allocated, gcs(at), i, 50));
        }
        return s;
    }

    /** Built once at {@code builtAt} and kept. */
    static SiteSeries kept(int points, double bytes, long builtAt) {
        long windowStart = builtAt / EVERY * EVERY;
        SiteSeries s = new SiteSeries(key("kept"), windowStart, gcs(windowStart), windowStart / EVERY, 120);
        for (long at = windowStart + EVERY; at <= points * EVERY; at += EVERY) {
            boolean first = at == windowStart + EVERY;
            s.add(new SitePoint(at, (long) (bytes / MB * 2), (long) (bytes / MB * 2), bytes / 1000, bytes, variance(bytes, bytes / MB * 2),
                    0, at - builtAt, at - builtAt, gcs(at - builtAt), first ? bytes / 1000 : 0, first ? bytes : 0, gcs(at), at / EVERY, 50));
        }
        return s;
    }

    /**
     * Allocates {@code bytesPerSecond} that dies at the next collection: what was allocated since the
     * last young collection is tracked but not yet examined; across a marking, a stray object or two.
     */
    static SiteSeries garbage(Random random, int points, double bytesPerSecond) {
        SiteSeries s = new SiteSeries(key("garbage"), 0, 0, 0, 120);
        for (int i = 1; i <= points; i++) {
            long at = i * EVERY;
            double unexamined = bytesPerSecond * random.nextDouble() * GC_EVERY / 1000;
            int strays = random.nextInt(3);
            double proven = strays * 512.0 * 1024;
            s.add(new SitePoint(at, (long) (unexamined / MB * 2) + 1 + strays, strays, strays, proven, proven * 512 * 1024, unexamined,
                    random.nextInt((int) GC_EVERY / 2), random.nextInt((int) GC_EVERY * 2), random.nextInt(20) == 0 ? 1 : 0,
                    bytesPerSecond * EVERY / 1000 / 1000, bytesPerSecond * EVERY / 1000, gcs(at), i, 50));
        }
        return s;
    }

    /** Like {@link #leak}, but on a heap where no whole-heap marking runs: nothing is proven, all of it unexamined. */
    static SiteSeries withoutMarkings(SiteSeries proven) {
        SiteSeries s = new SiteSeries(proven.key(), proven.windowStartMillis(), 0, 0, 120);
        for (SitePoint p : proven.points()) {
            s.add(new SitePoint(p.atMillis(), p.tracked(), 0, 0, 0, 0, p.liveBytes(), 0, 0, p.medianGcs(), p.allocatedObjects(),
                    p.allocatedBytes(), p.gcCount(), 0, -1));
        }
        return s;
    }

    /**
     * {@code level} plus {@code bytesPerSecond} kept from the start of the watch, proven only by the
     * collector's own cycles (G1 on a small heap), which complete every {@code markingEvery} or so and
     * cover what was allocated one to three seconds before: the snapshots between two markings repeat
     * the last proof (the same objects, a few fewer when young ones among them died).
     */
    static SiteSeries provenByOwnCycles(Random random, int points, double level, double bytesPerSecond, double samplesPerMb,
                                        long markingEvery) {
        SiteSeries s = new SiteSeries(key("own-cycles"), 0, 0, 0, 120);
        long markings = 0;
        long proof = -1;
        double proven = 0;
        double provenVariance = 0;
        long nextMarking = 1_000 + (long) (random.nextDouble() * markingEvery / 2);
        for (int i = 1; i <= points; i++) {
            long at = i * EVERY;
            while (nextMarking <= at) {
                markings++;
                proof = nextMarking - 1_000 - random.nextInt(2_000);
                double live = level + bytesPerSecond * Math.max(0, proof) / 1000;
                double samples = live / MB * samplesPerMb;
                proven = noisy(random, live, samples);
                provenVariance = variance(live, samples);
                nextMarking += markingEvery / 2 + (long) (random.nextDouble() * markingEvery);
            }
            if (markings > 0 && random.nextBoolean()) {
                proven *= 0.995;
            }
            double live = level + bytesPerSecond * at / 1000;
            double samples = live / MB * samplesPerMb;
            double allocated = i == 1 ? level + bytesPerSecond * EVERY / 1000 : bytesPerSecond * EVERY / 1000;
            s.add(new SitePoint(at, (long) samples + 1, markings > 0 ? (long) samples + 1 : 0, live / 1000, markings > 0 ? proven : 0,
                    markings > 0 ? provenVariance : 0, markings > 0 ? live - proven : live, at / 2, at - random.nextInt(1500),
                    gcs(at / 2), allocated / 1000, noisy(random, allocated, 10), gcs(at), markings, markings > 0 ? at - proof : -1));
        }
        return s;
    }
}
