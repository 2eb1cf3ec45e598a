package io.heaptap.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What live tracking costs the collector (issue #33): on each collector, a fresh JVM per mode (no
 * heaptap; a capture at the defaults; continuous mode; a capture with --no-live), each with a live set
 * near half the heap and two threads allocating flat out ({@link FootprintTarget}). For one window
 * after the mode is on: allocation stalls and their time (from the GC log, where the collector logs
 * them: ZGC), the collectors' cycle counts, the mean heap in use after a collection, and the garbage
 * threads' throughput against the run without heaptap.
 */
final class FootprintBench {
    private static final Pattern STALL = Pattern.compile("^\\[(\\d+)ms\\].*Allocation Stall \\(.*?\\) ([0-9.]+)ms");
    /** The collectors of issue #33, by name: their JVM flags (JDK 25: generational ZGC and Shenandoah). */
    static final Map<String, List<String>> COLLECTORS = collectors();
    private static final List<String> HEAPS = List.of("256m", "4g");

    private final Path classes;
    private final Commands commands;
    private final boolean quick;
    private final List<String> heaps;
    private final List<String> collectorPrefixes;

    FootprintBench(Path classes, Commands commands, boolean quick) {
        this(classes, commands, quick, null, null);
    }

    /**
     * {@code heaps} and {@code collectorPrefixes}: the shapes to run (null for all): one shape with more
     * repetitions resolves what the whole grid at one cannot (ZGC 256m's stall time, for one).
     */
    FootprintBench(Path classes, Commands commands, boolean quick, List<String> heaps, List<String> collectorPrefixes) {
        this.classes = classes;
        this.commands = commands;
        this.quick = quick;
        this.heaps = heaps != null ? heaps : quick ? List.of("256m") : HEAPS;
        this.collectorPrefixes = collectorPrefixes;
    }

    private boolean chosen(String collector) {
        return collectorPrefixes == null || collectorPrefixes.stream().anyMatch(collector::startsWith);
    }

    private static Map<String, List<String>> collectors() {
        Map<String, List<String>> c = new LinkedHashMap<>();
        c.put("G1", List.of("-XX:+UseG1GC"));
        c.put("Parallel", List.of("-XX:+UseParallelGC"));
        c.put("ZGC (generational)", List.of("-XX:+UseZGC"));
        c.put("Shenandoah (generational)", List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseShenandoahGC",
                "-XX:ShenandoahGCMode=generational"));
        return c;
    }

    private record Mode(String name, List<String> heaptap) {
    }

    private static final List<Mode> MODES = List.of(new Mode("no heaptap", List.of()),
            new Mode("`start` (defaults)", List.of("start", "PID", "--duration", "1h")),
            new Mode("`serve --continuous`", List.of("serve", "--continuous", "PID")),
            new Mode("`start --no-live`", List.of("start", "PID", "--duration", "1h", "--no-live")));
    private static final Mode NO_LIVE = MODES.get(3);

    private record Result(double ops, long heapAfter, String gcs, int stalls, double stallMillis) {
    }

    /** The section on {@code jdk} (generational ZGC and Shenandoah need 23 or later), one JVM per collector, heap and mode. */
    List<String> run(BenchTarget.Jdk jdk, int reps) throws Exception {
        long window = quick ? 2_000 : 20_000;
        List<String> report = new ArrayList<>();
        report.add("## Live tracking's cost to the collector (" + jdk.name() + "): live set 45% of the heap, 1% replaced a second,"
                + " 2 threads allocating flat out");
        report.add("");
        report.add("One fresh JVM per row and repetition; a " + window / 1000 + " s window after the mode is on. Stalls from the GC"
                + " log (ZGC logs them; other collectors: -), GC counts per collector bean, heap after GC the mean over the"
                + " window's GC notifications; median (min–max) of " + reps + " where there are several.");
        report.add("");
        report.add("| heap | collector | mode | allocation stalls (time) | GC counts in the window | heap after GC, mean | throughput vs no heaptap"
                + " | stall time ÷ `--no-live`'s, mean (95%) | stalls ÷ `--no-live`'s | load |");
        report.add("|---|---|---|---|---|---|---|---|---|---|");
        for (String heap : heaps) {
            for (Map.Entry<String, List<String>> collector : COLLECTORS.entrySet()) {
                if (jdk.feature() < 23 && !collector.getKey().equals("G1") && !collector.getKey().equals("Parallel")) {
                    continue;  // generational ZGC and Shenandoah: JDK 23 and later
                }
                if (!chosen(collector.getKey())) {
                    continue;
                }
                Map<Mode, List<Result>> results = new LinkedHashMap<>();
                Map<Mode, List<Double>> load = new LinkedHashMap<>();
                for (int rep = 0; rep < reps; rep++) {
                    for (Mode mode : MODES) {
                        results.computeIfAbsent(mode, k -> new ArrayList<>()).add(once(jdk, heap, collector.getValue(), mode, window));
                        load.computeIfAbsent(mode, k -> new ArrayList<>()).add(MachineLoad.now());
                    }
                }
                List<Double> baseline = results.get(MODES.get(0)).stream().map(Result::ops).toList();
                for (Mode mode : MODES) {
                    List<Result> rs = results.get(mode);
                    List<Double> ratios = new ArrayList<>();
                    for (int i = 0; i < rs.size(); i++) {
                        ratios.add(rs.get(i).ops() / baseline.get(i));
                    }
                    report.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |", heap, collector.getKey(),
                            mode.name(), stalls(rs), rs.get(rs.size() - 1).gcs(),
                            new Stats(rs.stream().map(r -> r.heapAfter() / 1048576.0).toList()).plain() + " MiB",
                            mode == MODES.get(0) ? "1" : new Stats(ratios).ratio(),
                            againstNoLive(rs, results.get(NO_LIVE), Result::stallMillis),
                            againstNoLive(rs, results.get(NO_LIVE), r -> r.stalls()), new Stats(load.get(mode)).plain()));
                }
            }
        }
        report.add("");
        return report;
    }

    /**
     * Each repetition's figure over the same repetition's {@code --no-live} one (the modes of a repetition run one after
     * another, so they share its load): mean and 95% interval; "-" where the collector logs no stalls or one is zero.
     */
    private static String againstNoLive(List<Result> rs, List<Result> noLive, java.util.function.ToDoubleFunction<Result> figure) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < rs.size(); i++) {
            double base = figure.applyAsDouble(noLive.get(i));
            if (rs.get(i).stalls() < 0 || base <= 0) {
                return "-";
            }
            ratios.add(figure.applyAsDouble(rs.get(i)) / base);
        }
        return new Stats(ratios).meanInterval();
    }

    private static String stalls(List<Result> rs) {
        if (rs.stream().allMatch(r -> r.stalls() < 0)) {
            return "-";
        }
        List<String> each = rs.stream().map(r -> String.format(Locale.ROOT, "%d (%.1f s)", r.stalls(), r.stallMillis() / 1000)).toList();
        return String.join(", ", each);
    }

    private Result once(BenchTarget.Jdk jdk, String heap, List<String> collector, Mode mode, long window) throws Exception {
        Path log = Files.createTempFile("heaptap-footprint-gc", ".log");
        List<String> jvmArgs = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-Dbench.window=" + window,
                "-Xlog:gc:file=" + log + ":uptimemillis:filecount=0"));  // no rotation: the whole window in one file
        jvmArgs.addAll(collector);
        try (BenchTarget t = new BenchTarget(jdk, classes, FootprintTarget.class, jvmArgs)) {
            String pid = Long.toString(t.pid());
            // The live set built and the collector settled: Parallel at 256 MiB, for one, goes from young collections
            // to a full collection every 25 ms within its first 8 s with nothing attached (its adaptive sizing).
            t.window(quick ? 500 : 10_000);
            if (!mode.heaptap().isEmpty()) {
                commands.heaptap(mode.heaptap().stream().map(a -> a.equals("PID") ? pid : a).toArray(String[]::new));
            }
            t.window(quick ? 500 : 2_000);
            String[] w = t.command("footprint", "footprint ").split(" ");
            long from = Long.parseLong(w[8]);
            long to = Long.parseLong(w[9]);
            int stalls = 0;
            double stallMillis = 0;
            boolean logsStalls = collector.contains("-XX:+UseZGC");
            for (String line : Files.readAllLines(log)) {
                Matcher m = STALL.matcher(line);
                if (m.find()) {
                    long at = Long.parseLong(m.group(1));
                    if (at >= from && at <= to) {
                        stalls++;
                        stallMillis += Double.parseDouble(m.group(2));
                    }
                }
            }
            return new Result(Double.parseDouble(w[2]), Long.parseLong(w[4]), w[6].replace('_', ' '), logsStalls ? stalls : -1, stallMillis);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
