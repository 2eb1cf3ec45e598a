package io.heaptap.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The 95% interval against simulated Poisson sampling with a known truth: heaptap's sampler keeps
 * an object of size s with probability 1 - exp(-s/R) and weighs it by its inverse, then thins the
 * kept ones with a fair coin per halving. The interval must hold the truth about 95% of the time,
 * with many samples and with few.
 */
class EstimateTest {
    static final int RUNS = 4_000;

    /** How many of n objects end up in the sample, each with probability q: binomial, drawn fast. */
    static int sampled(Random random, int n, double q) {
        double mean = n * q;
        if (mean > 50) {
            return (int) Math.max(0, Math.round(mean + random.nextGaussian() * Math.sqrt(mean * (1 - q))));
        }
        int k = 0;  // Poisson by inversion: exact enough for small q
        double p = Math.exp(-mean);
        double sum = p;
        double u = random.nextDouble();
        while (u > sum) {
            k++;
            p *= mean / k;
            sum += p;
        }
        return k;
    }

    /** Fraction of runs whose interval holds the truth: n objects of size s, interval r, thinned k times. */
    static double coverage(long seed, int n, long size, double interval, int thinnings) {
        Random random = new Random(seed);
        double p = -Math.expm1(-size / interval);
        double keep = Math.pow(0.5, thinnings);
        double truth = (double) n * size;
        int covered = 0;
        for (int run = 0; run < RUNS; run++) {
            Estimate one = Estimate.bytesOf(size, 1 / (p * keep));
            int k = sampled(random, n, p * keep);
            Estimate e = new Estimate(k * one.value(), k * one.variance());
            if (e.covers(truth)) {
                covered++;
            }
        }
        return (double) covered / RUNS;
    }

    @Test
    void manySamplesCoverTheTruthAbout95PercentOfTheTime() {
        // ~2000 samples of 1 KiB objects at 512 KiB, and the same after three thinnings (~250).
        double c = coverage(1, 1_000_000, 1024, 512 * 1024, 0);
        assertTrue(c > 0.93 && c < 0.97, "coverage " + c);
        double thinned = coverage(2, 1_000_000, 1024, 512 * 1024, 3);
        assertTrue(thinned > 0.93 && thinned < 0.975, "coverage after thinning " + thinned);
    }

    @Test
    void fewSamplesStillCoverTheTruth() {
        // ~3 and ~10 expected samples: a normal interval would cover far less, and go below zero.
        for (int n : new int[] {1_500, 5_000}) {
            double c = coverage(n, n, 1024, 512 * 1024, 0);
            assertTrue(c >= 0.93, n + " objects: coverage " + c);
        }
    }

    /** As {@link #coverage}, objects certain to be sampled, then each kept by a byte coin of probability q; with or without the unit. */
    static double coinCoverage(long seed, int n, long size, double q, boolean unit) {
        Random random = new Random(seed);
        double truth = (double) n * size;
        Estimate one = Estimate.bytesOf(size, 1 / q);
        int covered = 0;
        for (int run = 0; run < RUNS; run++) {
            int k = sampled(random, n, q);
            Estimate e = new Estimate(k * one.value(), k * one.variance());
            if ((unit && k < n ? e.withLetGo(one.value(), Estimate.ZERO) : e).covers(truth)) {
                covered++;
            }
        }
        return (double) covered / RUNS;
    }

    @Test
    void aSiteThinnedToNoneOrFewStillCoversTheTruthWithItsUnit() {
        // 25 or 300 arrays of 1 MiB kept by byte coins at 1/200: 0.1 and 1.5 expected survivors, 0 most runs.
        for (int n : new int[] {25, 300}) {
            assertTrue(coinCoverage(n, n, 1 << 20, 1 / 200.0, false) < 0.8, "the kept samples alone claim too much");
            double c = coinCoverage(n, n, 1 << 20, 1 / 200.0, true);
            assertTrue(c >= 0.95, n + " objects: coverage " + c);
        }
    }

    @Test
    void whatWasLetGoWithoutACoinWidensTheUpperEndOnly() {
        Estimate e = new Estimate(100, 0).withLetGo(0, new Estimate(50, 0));
        assertEquals(100, e.lower(), 1e-9);
        assertEquals(150, e.upper(), 1e-9);
        assertTrue(e.plus(new Estimate(10, 0).withLetGo(8, new Estimate(5, 0))).upper() >= 110 + 55 + 3.6 * 8,
                "units add their bound, let-go adds up");
        Estimate sampled = Estimate.ZERO.withLetGo(0, Estimate.bytesOf(1024, 512));  // one sample let go, standing for 512
        assertTrue(sampled.upper() > 5 * 512 * 1024, "what was let go is itself an estimate: its own interval's upper end, " + sampled);
    }

    @Test
    void objectsLargerThanTheIntervalAreExact() {
        Estimate e = Estimate.bytesOf(64L << 20, 1 / -Math.expm1(-(64.0 * 1024) / 0.5));  // p = 1 to double precision
        assertEquals(e.value(), e.lower(), 1e-6);
        assertEquals(e.value(), e.upper(), 1e-6);
    }

    @Test
    void oneSampleGivesAWideLopsidedInterval() {
        Estimate e = Estimate.bytesOf(1024, 512);  // one sample standing for 512 objects
        assertTrue(e.lower() > 0 && e.lower() < 0.05 * e.value(), e.toString());
        assertTrue(e.upper() > 5 * e.value() && e.upper() < 6 * e.value(), e.lower() + " " + e.upper());
        assertEquals("512.0 KiB [6.8 KiB, 2.8 MiB]", HumanUnits.formatBytes(e));
    }
}
