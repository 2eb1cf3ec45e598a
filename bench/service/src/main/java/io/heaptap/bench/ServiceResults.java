package io.heaptap.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The service benchmark's figures per JDK and tool: every on-window over the mean of its two off-neighbours
 * in the same JVM, and the off-windows' own figures, written as Markdown tables. CPU per request comes
 * first: at a fixed rate the service's CPU per request barely moves with the rest of the machine, where
 * throughput and tail latency move with every other process on the two cores.
 */
final class ServiceResults {
    /** One measuring window: a fixed-rate part, then a saturation part. */
    record Window(LoadClient.FixedRate fixed, LoadClient.Saturation saturation) {
        double[] figures() {
            return new double[] {fixed.cpuMicrosPerRequest(), fixed.p50Millis(), fixed.p99Millis(), fixed.p999Millis(),
                saturation.perSecond()};
        }

        long errors() {
            return fixed.errors() + saturation.errors();
        }
    }

    static final List<String> FIGURES = List.of("CPU per request", "p50", "p99", "p99.9", "throughput at saturation");

    /** One JDK and tool: its ratios (one list per figure) and its JVMs' off-windows. */
    private static final class Row {
        final List<List<Double>> ratios = new ArrayList<>();
        final List<Window> offs = new ArrayList<>();
        final List<String> warmUps = new ArrayList<>();
        long errors;

        Row() {
            for (int i = 0; i < FIGURES.size(); i++) {
                ratios.add(new ArrayList<>());
            }
        }
    }

    private final Map<List<String>, Row> rows = new LinkedHashMap<>();

    private Row row(String jdk, String tool) {
        return rows.computeIfAbsent(List.of(jdk, tool), k -> new Row());
    }

    /** A JVM's warm-up: how long, whether its throughput settled, and the fixed rate it chose. */
    void warmedUp(String jdk, String tool, double seconds, boolean steady, double rate) {
        row(jdk, tool).warmUps.add(String.format(Locale.ROOT, "%.0f s%s, %.0f/s", seconds, steady ? "" : " (not steady: capped)", rate));
    }

    void offWindow(String jdk, String tool, Window off) {
        Row r = row(jdk, tool);
        r.offs.add(off);
        r.errors += off.errors();
    }

    /** An on-window and its two off-neighbours: one ratio per figure, on over the neighbours' mean. */
    void onWindow(String jdk, String tool, Window before, Window on, Window after) {
        Row r = row(jdk, tool);
        r.errors += on.errors();
        double[] b = before.figures();
        double[] o = on.figures();
        double[] a = after.figures();
        for (int i = 0; i < o.length; i++) {
            r.ratios.get(i).add(o[i] / ((b[i] + a[i]) / 2));
        }
    }

    /** The mean ratio of a figure (NaN if none), for callers that judge it. */
    double meanRatio(String jdk, String tool, String figure) {
        Row r = rows.get(List.of(jdk, tool));
        List<Double> values = r == null ? List.of() : r.ratios.get(FIGURES.indexOf(figure));
        return values.isEmpty() ? Double.NaN : new Stats(values).mean();
    }

    /**
     * Issue #37's goals for heaptap at its defaults on one JDK, judged by the means' 95% intervals: CPU per
     * request at most 1.01 and p99 at most 1.05 of the off-windows, and cheaper by CPU per request than
     * async-profiler alloc and JFR profile. A goal is met or missed only when the interval lies wholly on
     * one side; otherwise this run cannot tell.
     */
    List<String> goals(String jdk) {
        List<String> out = new ArrayList<>();
        Stats cpu = stats(jdk, HEAPTAP, "CPU per request");
        Stats p99 = stats(jdk, HEAPTAP, "p99");
        if (cpu == null) {
            return out;
        }
        out.add("- " + jdk + ", heaptap defaults: CPU per request ≤ 1.01: " + atMost(cpu, 1.01) + "; p99 ≤ 1.05: " + atMost(p99, 1.05));
        for (String other : List.of("async-profiler alloc", "JFR profile")) {
            Stats theirs = stats(jdk, other, "CPU per request");
            if (theirs != null) {
                double ours = cpu.mean();
                String verdict = cpu.mean() + cpu.halfWidth95() < theirs.mean() - theirs.halfWidth95() ? "yes"
                        : cpu.mean() - cpu.halfWidth95() > theirs.mean() + theirs.halfWidth95() ? "no" : "not resolved";
                out.add(String.format(Locale.ROOT, "- %s, heaptap defaults cheaper than %s by CPU per request: %s (%.3f against %.3f)",
                        jdk, other, verdict, ours, theirs.mean()));
            }
        }
        return out;
    }

    static final String HEAPTAP = "heaptap defaults";

    private Stats stats(String jdk, String tool, String figure) {
        Row r = rows.get(List.of(jdk, tool));
        List<Double> values = r == null ? List.of() : r.ratios.get(FIGURES.indexOf(figure));
        return values.isEmpty() ? null : new Stats(values);
    }

    /** Whether a ratio's mean is at most {@code bound}, by its 95% interval. */
    static String atMost(Stats ratio, double bound) {
        double half = ratio.halfWidth95();
        String verdict = Double.isNaN(half) ? "not resolved (one window)"
                : ratio.mean() + half <= bound ? "met" : ratio.mean() - half > bound ? "missed" : "not resolved";
        return verdict + " (" + ratio.meanInterval() + ")";
    }

    long errors() {
        return rows.values().stream().mapToLong(r -> r.errors).sum();
    }

    List<String> tables() {
        List<String> out = new ArrayList<>();
        out.add("| JDK | tool | CPU per request | p50 | p99 | p99.9 | throughput at saturation | on-windows |");
        out.add("|---|---|---|---|---|---|---|---|");
        rows.forEach((key, r) -> {
            if (r.ratios.get(0).isEmpty()) {
                return;
            }
            StringBuilder line = new StringBuilder("| " + key.get(0) + " | " + key.get(1) + " |");
            for (List<Double> values : r.ratios) {
                line.append(' ').append(new Stats(values).meanInterval()).append(" |");
            }
            out.add(line.append(' ').append(r.ratios.get(0).size()).append(" |").toString());
        });
        out.add("");
        out.add("The off-windows' own figures (median over the off-windows that follow a tool's on-windows; the fixed rate is a share of the throughput"
                + " the JVM reached at the end of its warm-up):");
        out.add("");
        out.add("| JDK | tool (the off-windows after it) | the JVM's warm-up, fixed rate | CPU per request | p50 | p99 | p99.9 | throughput at saturation | failed requests |");
        out.add("|---|---|---|---|---|---|---|---|---|");
        rows.forEach((key, r) -> {
            List<List<Double>> figures = new ArrayList<>();
            for (int i = 0; i < FIGURES.size(); i++) {
                int figure = i;
                figures.add(r.offs.stream().map(w -> w.figures()[figure]).toList());
            }
            if (r.offs.isEmpty()) {
                return;
            }
            out.add(String.format(Locale.ROOT, "| %s | %s | %s | %.0f µs | %.2f ms | %.2f ms | %.2f ms | %.0f/s | %d |", key.get(0), key.get(1),
                    String.join("; ", r.warmUps), new Stats(figures.get(0)).median(), new Stats(figures.get(1)).median(),
                    new Stats(figures.get(2)).median(), new Stats(figures.get(3)).median(), new Stats(figures.get(4)).median(),
                    r.errors));
        });
        return out;
    }
}
