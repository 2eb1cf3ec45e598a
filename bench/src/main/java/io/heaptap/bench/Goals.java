package io.heaptap.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The goals of issues #7 and #16, each judged from the figures the sections measured in this run. A goal
 * whose section did not run (or could not measure it) says "not measured", never "pass".
 */
final class Goals {
    static final String ATTACH_MILLIS = "attach to first sample ms";
    static final String DUMP_64K_MILLIS = "dump work ms at 64k tracked";
    static final String DUMP_64K_TRACKED = "tracked objects of the 64k dump row";
    static final String NATIVE_64K_BYTES = "native bytes at 64k tracked";

    private final List<String> rows = new ArrayList<>();
    private final Map<String, Double> measured;

    private Goals(Map<String, Double> measured) {
        this.measured = measured;
    }

    static String overhead(BenchTarget.Jdk jdk, String tool) {
        return "throughput|" + jdk.name() + "|" + tool;
    }

    /** The mean of a tool's throughput ratios, and the half-width of its 95% interval. */
    static String overheadMean(BenchTarget.Jdk jdk, String tool) {
        return "throughput mean|" + jdk.name() + "|" + tool;
    }

    static String overheadHalfWidth(BenchTarget.Jdk jdk, String tool) {
        return "throughput 95% half-width|" + jdk.name() + "|" + tool;
    }

    static String worstError(BenchTarget.Jdk jdk, String tool) {
        return "worst error|" + jdk.name() + "|" + tool;
    }

    static List<String> table(List<BenchTarget.Jdk> jdks, Map<String, Double> measured) {
        Goals g = new Goals(measured);
        for (BenchTarget.Jdk jdk : jdks) {
            g.overheadGoals(jdk);
        }
        for (BenchTarget.Jdk jdk : jdks) {
            g.accuracyGoals(jdk);
        }
        Double dump = measured.get(DUMP_64K_MILLIS);
        Double nativeBytes = measured.get(NATIVE_64K_BYTES);
        String tracked = dump == null ? "" : String.format(Locale.ROOT, " (%,.0f tracked)", measured.get(DUMP_64K_TRACKED));
        g.row("dump of 64k tracked objects (`dump` wall minus `status` wall)", "≤ 250 ms",
                dump == null ? null : String.format(Locale.ROOT, "%.0f ms%s", dump, tracked), dump == null ? null : dump <= 250);
        g.row("native memory at 64k tracked objects and 10k stacks (measured with 64k+ tracked objects but few stacks: "
                + "the stack half of the goal is not measured)", "≤ 32 MiB",
                nativeBytes == null ? null : String.format(Locale.ROOT, "%.1f MiB%s", nativeBytes / (1 << 20), tracked),
                nativeBytes == null ? null : nativeBytes <= 32 << 20);
        Double attach = measured.get(ATTACH_MILLIS);
        g.row("attach to first sample (`heaptap start` minus CLI start-up)", "≤ 500 ms",
                attach == null ? null : String.format(Locale.ROOT, "%.0f ms", attach), attach == null ? null : attach <= 500);
        List<String> md = new ArrayList<>();
        md.add("## Goals (issues #7 and #16), judged from this run");
        md.add("");
        md.add("| goal | target | measured | result |");
        md.add("|---|---|---|---|");
        md.addAll(g.rows);
        md.add("");
        return md;
    }

    private void overheadGoals(BenchTarget.Jdk jdk) {
        Double noLive = measured.get(overhead(jdk, "heaptap 512k no-live"));
        Double live = measured.get(overhead(jdk, "heaptap 512k live"));
        Double ap = measured.get(overhead(jdk, "async-profiler alloc 512k"));
        Double apLive = measured.get(overhead(jdk, "async-profiler alloc 512k live"));
        Double jfr = measured.get(overhead(jdk, "JFR profile"));
        String on = ", allocation-heavy target, " + jdk.name();
        Double byDefault = measured.get(overhead(jdk, "heaptap default live"));
        throughputGoal("throughput with heaptap at its defaults (sample-rate target, live tracking)" + on, 0.99, byDefault,
                measured.get(overheadMean(jdk, "heaptap default live")), measured.get(overheadHalfWidth(jdk, "heaptap default live")));
        boolean ahead = byDefault != null && ap != null;
        row("heaptap at its defaults (live tracking) ahead of async-profiler `alloc` 512k" + on, "throughput ≥",
                ahead ? String.format(Locale.ROOT, "%.3f vs %.3f", byDefault, ap) : null, ahead ? byDefault >= ap : null);
        row("overhead of heaptap 512k without live tracking" + on, "≤ 1%", cost(noLive), noLive == null ? null : 1 - noLive <= 0.01);
        row("overhead of heaptap 512k with live tracking" + on, "≤ 2%", cost(live), live == null ? null : 1 - live <= 0.02);
        boolean all = noLive != null && ap != null && jfr != null;
        row("heaptap 512k without live tracking no worse than async-profiler `alloc` 512k and JFR `profile`" + on,
                "throughput ≥ both", all ? String.format(Locale.ROOT, "%.3f vs %.3f and %.3f", noLive, ap, jfr) : null,
                all ? noLive >= ap && noLive >= jfr : null);
        boolean both = live != null && apLive != null;
        row("heaptap 512k with live tracking no worse than async-profiler `alloc,live` 512k" + on, "throughput ≥",
                both ? String.format(Locale.ROOT, "%.3f vs %.3f", live, apLive) : null, both ? live >= apLive : null);
    }

    /**
     * A throughput floor judged by the mean's 95% interval: met when the whole interval is at or above
     * it, missed when the whole interval is below, and "not resolved" when the run's noise cannot tell:
     * the median alone called a 1% goal met or missed on the noise of one window pair.
     */
    private void throughputGoal(String goal, double floor, Double median, Double mean, Double halfWidth) {
        if (median == null) {
            row(goal, "≥ " + floor, null, null);
            return;
        }
        if (mean == null || halfWidth == null || halfWidth.isNaN()) {
            row(goal, "≥ " + floor, String.format(Locale.ROOT, "%.3f", median), median >= floor);
            return;
        }
        String value = String.format(Locale.ROOT, "median %.3f; mean %.3f (95%%: %.3f–%.3f)", median, mean, mean - halfWidth,
                mean + halfWidth);
        if (mean - halfWidth >= floor || mean + halfWidth < floor) {
            row(goal, "≥ " + floor, value, mean - halfWidth >= floor);
        } else {
            addRow(goal, "≥ " + floor, value, "not resolved");
        }
    }

    private void accuracyGoals(BenchTarget.Jdk jdk) {
        Double byDefault = measured.get(worstError(jdk, Accuracy.HEAPTAP_DEFAULT));
        row("worst per-site error of allocated bytes, heaptap at its defaults, a 10 s capture (its worst run), " + jdk.name(), "≤ 5%",
                byDefault == null ? null : percent(byDefault), byDefault == null ? null : byDefault <= 0.05);
        Double heaptap = measured.get(worstError(jdk, Accuracy.HEAPTAP));
        Double jfr = measured.get(worstError(jdk, Accuracy.JFR));
        Double ap = measured.get(worstError(jdk, Accuracy.ASYNC));
        if (jdk.feature() >= 25) {
            row("worst per-site error of allocated bytes, heaptap 512k (its worst run), " + jdk.name(), "≤ 5%",
                    heaptap == null ? null : percent(heaptap), heaptap == null ? null : heaptap <= 0.05);
        }
        boolean all = heaptap != null && jfr != null && ap != null;
        row("worst per-site error of heaptap below JFR's and async-profiler's, " + jdk.name(), "heaptap < both",
                all ? percent(heaptap) + " vs " + percent(jfr) + " and " + percent(ap) : null, all ? heaptap < jfr && heaptap < ap : null);
    }

    private static String cost(Double throughput) {
        return throughput == null ? null : String.format(Locale.ROOT, "%.1f%% (throughput %.3f)", 100 * (1 - throughput), throughput);
    }

    private static String percent(double error) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * error);
    }

    private void row(String goal, String target, String value, Boolean pass) {
        addRow(goal, target, value, pass == null ? "—" : pass ? "pass" : "**FAIL**");
    }

    private void addRow(String goal, String target, String value, String result) {
        rows.add("| " + goal + " | " + target + " | " + (value == null ? "not measured" : value) + " | " + result + " |");
    }
}
