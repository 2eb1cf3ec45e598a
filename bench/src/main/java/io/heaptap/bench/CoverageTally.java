package io.heaptap.bench;

import java.util.List;
import java.util.Locale;

/**
 * Counting of the coverage section: a site-run is covered when the site's true retained bytes lie inside
 * heaptap's stated 95% interval. Issue #33's goal: at least 19 of 20 site-runs covered, on each collector.
 */
final class CoverageTally {
    /** The goal's share: 19 of 20. */
    static final int GOAL_COVERED = 19;
    static final int GOAL_OF = 20;

    /**
     * One site in one run: its true bytes, heaptap's proven live estimate, its allocated-bytes estimate
     * (the same truth: the site keeps all it allocates), and the capture's bound.
     */
    record SiteRun(String site, long truth, CoverageReading.Estimate estimate, CoverageReading.Estimate allocated,
            CoverageReading.Hold hold) {
        boolean covered() {
            return estimate.covers(truth);
        }

        boolean allocatedCovered() {
            return allocated.covers(truth);
        }

        double allocatedRatio() {
            return allocated.bytes() / truth;
        }

        double ratio() {
            return estimate.bytes() / truth;
        }

        /** The interval's width over the truth. */
        double relativeWidth() {
            return (estimate.high() - estimate.low()) / truth;
        }

        /** "0.812 [0.61, 1.07]": estimate and interval over the truth. */
        String describe() {
            return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", ratio(), estimate.low() / truth, estimate.high() / truth);
        }
    }

    private CoverageTally() {
    }

    static long covered(List<SiteRun> runs) {
        return runs.stream().filter(SiteRun::covered).count();
    }

    /** "pass", "**FAIL**", or "too few" when there are fewer site-runs than the goal counts. */
    static String verdict(List<SiteRun> runs) {
        if (runs.size() < GOAL_OF) {
            return "too few to judge";
        }
        return covered(runs) * GOAL_OF >= (long) GOAL_COVERED * runs.size() ? "pass" : "**FAIL**";
    }

    /** "19/20 (95%)". */
    static String fraction(List<SiteRun> runs) {
        return String.format(Locale.ROOT, "%d/%d (%.0f%%)", covered(runs), runs.size(),
                runs.isEmpty() ? 0.0 : 100.0 * covered(runs) / runs.size());
    }
}
