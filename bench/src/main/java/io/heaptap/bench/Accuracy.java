package io.heaptap.bench;

import io.heaptap.profile.format.JsonReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The accuracy section: per-site estimates of heaptap, JFR and async-profiler against the counts
 * {@link AccuracyTarget} keeps itself. Each tool profiles its own fresh target JVM (two JVMTI
 * allocation samplers cannot run in one JVM); the target's plan is deterministic, so the truth is
 * the same in every JVM. The table's estimates and truths are summed over repetitions before dividing;
 * the goals are judged on each run's own worst site, since a user reads one capture, and a sum over
 * three runs is about the square root of three closer to the truth than any one of them.
 */
final class Accuracy {
    static final String HEAPTAP = "heaptap 512k";
    /** heaptap as a user runs it: the default sample-rate target, over a capture of {@link #DEFAULT_CAPTURE}. */
    static final String HEAPTAP_DEFAULT = "heaptap default, 10 s";
    static final Duration DEFAULT_CAPTURE = Duration.ofSeconds(10);
    static final String JFR = "JFR profile";
    static final String ASYNC = "async-profiler alloc 512k";
    static final String ASYNC_LIVE = "async-profiler alloc,live 512k";
    static final String JFR_OLD = "JFR OldObjectSample";
    private static final String[] ALLOC_TOOLS = {HEAPTAP_DEFAULT, HEAPTAP, JFR, ASYNC};
    private static final Pattern SITE = Pattern.compile("AccuracyTarget\\.((?:bytes|kept)\\w+)");

    private final Path classes;
    private final Path asyncProfiler;
    private final Commands commands;
    private final boolean quick;
    /** site -> column -> sum over repetitions; columns are tool names and "truth <tool>". */
    private final Map<String, Map<String, Double>> allocated = new LinkedHashMap<>();
    private final Map<String, Map<String, Double>> live = new LinkedHashMap<>();
    private final Map<String, Long> objects = new LinkedHashMap<>();
    /** tool -> each run's worst per-site error of allocated bytes. */
    private final Map<String, List<Double>> worstPerRun = new LinkedHashMap<>();

    Accuracy(Path classes, Path asyncProfiler, Commands commands, boolean quick) {
        this.classes = classes;
        this.asyncProfiler = asyncProfiler;
        this.commands = commands;
        this.quick = quick;
    }

    /** Runs every tool {@code reps} times on {@code jdk}; returns the section's Markdown and adds its figures to {@code measured}. */
    List<String> run(BenchTarget.Jdk jdk, int reps, Map<String, Double> measured) throws Exception {
        for (int rep = 0; rep < reps; rep++) {
            oneRun(HEAPTAP_DEFAULT, () -> heaptapDefault(jdk));
            oneRun(HEAPTAP, () -> heaptap(jdk));
            oneRun(JFR, () -> jfr(jdk));
            oneRun(ASYNC, () -> asyncProfiler(jdk, false));
            asyncProfiler(jdk, true);
        }
        List<String> md = new ArrayList<>();
        md.add("## Accuracy: allocated bytes per site, " + jdk.name());
        md.add("");
        md.add("Estimated ÷ true bytes per site (1.000 = exact), summed over " + reps + " run(s) of each tool, each in its own JVM. "
                + "The target counts its own allocations; sites run interleaved object by object. heaptap: Poisson weights; "
                + "heaptap default: a capture at the default sample-rate target that lasts " + DEFAULT_CAPTURE.toSeconds()
                + " s while the target repeats its plan (the truth is what those plans allocated); "
                + "JFR `settings=profile`: sum of `jdk.ObjectAllocationSample` weights (throttled to 300 events/s); "
                + "async-profiler 4.6: `alloc=512k,total`.");
        md.add("");
        md.add("| site | object size | objects | true bytes | " + String.join(" | ", ALLOC_TOOLS) + " |");
        md.add("|---|---|---|---|" + "---|".repeat(ALLOC_TOOLS.length));
        Map<String, List<Double>> errors = new LinkedHashMap<>();
        for (AccuracyTarget.Site site : AccuracyTarget.ALLOCATING) {
            Map<String, Double> row = allocated.get(site.name());
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "| `%s` | %,d B | %,d | %,.0f |", site.name(),
                    Math.round(row.get("truth " + HEAPTAP) / objects.get(site.name())), objects.get(site.name()) / reps,
                    row.get("truth " + HEAPTAP) / reps));
            for (String tool : ALLOC_TOOLS) {
                double ratio = row.getOrDefault(tool, 0.0) / row.get("truth " + tool);
                errors.computeIfAbsent(tool, k -> new ArrayList<>()).add(Math.abs(ratio - 1));
                line.append(String.format(Locale.ROOT, " %.3f |", ratio));
            }
            md.add(line.toString());
        }
        StringBuilder mean = new StringBuilder("| **mean absolute error** | | | |");
        StringBuilder worst = new StringBuilder("| **worst error** | | | |");
        StringBuilder perRun = new StringBuilder("| **worst error of one run: the largest (median) of " + reps + "** | | | |");
        for (String tool : ALLOC_TOOLS) {
            double m = errors.get(tool).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            double w = errors.get(tool).stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            Stats runs = new Stats(worstPerRun.get(tool));
            mean.append(String.format(Locale.ROOT, " %.1f%% |", 100 * m));
            worst.append(String.format(Locale.ROOT, " %.1f%% |", 100 * w));
            perRun.append(String.format(Locale.ROOT, " %.1f%% (%.1f%%) |", 100 * runs.max(), 100 * runs.median()));
            measured.put(Goals.worstError(jdk, tool), runs.max());
        }
        md.add(mean.toString());
        md.add(worst.toString());
        md.add(perRun.toString());
        md.add("");
        md.addAll(liveTable(jdk, reps));
        return md;
    }

    private List<String> liveTable(BenchTarget.Jdk jdk, int reps) {
        List<String> md = new ArrayList<>();
        md.add("## Accuracy: live bytes per site, " + jdk.name());
        md.add("");
        md.add("Each site allocates its bytes and keeps every other object; a full GC runs right before each tool reports "
                + "(heaptap `dump --gc`, `jcmd GC.run` before async-profiler's `stop`). Estimated ÷ true retained bytes. "
                + "JFR's old-object sampler has no weight: its column is a count of the 256 samples it keeps, not an estimate.");
        md.add("");
        md.add("| site | object size | objects kept | bytes kept | " + HEAPTAP + " live | " + ASYNC_LIVE + " `total` | "
                + JFR_OLD + " events (count) |");
        md.add("|---|---|---|---|---|---|---|");
        for (AccuracyTarget.Site site : AccuracyTarget.RETAINING) {
            Map<String, Double> row = live.get(site.name());
            md.add(String.format(Locale.ROOT, "| `%s` | %,d B | %,d | %,.0f | %.3f | %.3f | %.0f |", site.name(),
                    Math.round(row.get("truth " + HEAPTAP) / objects.get(site.name())), objects.get(site.name()) / reps,
                    row.get("truth " + HEAPTAP) / reps, row.getOrDefault(HEAPTAP, 0.0) / row.get("truth " + HEAPTAP),
                    row.getOrDefault(ASYNC_LIVE, 0.0) / row.get("truth " + ASYNC_LIVE), row.getOrDefault(JFR_OLD, 0.0) / reps));
        }
        md.add("");
        return md;
    }

    /** One tool's run; notes its own worst per-site error, from what it added to the sums. */
    private void oneRun(String tool, Run run) throws Exception {
        Map<String, double[]> before = sums(tool);
        run.run();
        Map<String, double[]> after = sums(tool);
        double worst = 0;
        for (AccuracyTarget.Site site : AccuracyTarget.ALLOCATING) {
            double[] b = before.get(site.name());
            double[] a = after.get(site.name());
            worst = Math.max(worst, Math.abs((a[0] - b[0]) / (a[1] - b[1]) - 1));
        }
        worstPerRun.computeIfAbsent(tool, k -> new ArrayList<>()).add(worst);
    }

    /** Per allocating site, {@code tool}'s estimate and truth summed so far. */
    private Map<String, double[]> sums(String tool) {
        Map<String, double[]> sums = new LinkedHashMap<>();
        for (AccuracyTarget.Site site : AccuracyTarget.ALLOCATING) {
            Map<String, Double> row = allocated.getOrDefault(site.name(), Map.of());
            sums.put(site.name(), new double[] {row.getOrDefault(tool, 0.0), row.getOrDefault("truth " + tool, 0.0)});
        }
        return sums;
    }

    private interface Run {
        void run() throws Exception;
    }

    private BenchTarget target(BenchTarget.Jdk jdk) throws Exception {
        return new BenchTarget(jdk, classes, AccuracyTarget.class,
                List.of("-Dbench.allocMib=" + (quick ? 32 : 1024), "-Dbench.retainMib=" + (quick ? 16 : 192)));
    }

    /** Runs the target's plan, recording the truth for {@code tool} (for the live table too, under {@code liveTool}). */
    private void plan(BenchTarget t, String tool, String liveTool) throws Exception {
        truth(allocated, t.command("alloc", "allocated"), tool);
        truth(live, t.command("retain", "retained"), liveTool);
    }

    /** Adds a target's reply (" SITE=OBJECTS:BYTES ...") as the truth for {@code tool}; object counts once, from heaptap's runs. */
    private void truth(Map<String, Map<String, Double>> table, String reply, String tool) {
        for (String word : reply.substring(reply.indexOf(' ') + 1).split(" ")) {
            String site = word.substring(0, word.indexOf('='));
            String[] counts = word.substring(word.indexOf('=') + 1).split(":");
            add(table, site, "truth " + tool, Double.parseDouble(counts[1]));
            if (tool.equals(HEAPTAP)) {
                objects.merge(site, Long.parseLong(counts[0]), Long::sum);
            }
        }
    }

    private static void add(Map<String, Map<String, Double>> table, String site, String column, double value) {
        table.computeIfAbsent(site, k -> new LinkedHashMap<>()).merge(column, value, Double::sum);
    }

    private void heaptap(BenchTarget.Jdk jdk) throws Exception {
        try (BenchTarget t = target(jdk)) {
            String pid = Long.toString(t.pid());
            commands.heaptap("start", pid, "--duration", "1h", "--interval", "512k");
            plan(t, HEAPTAP, HEAPTAP);
            commands.heaptap("stop", pid);
            // After dump --gc everything allocated before the collection is examined: the proven part is the estimate.
            readDump(pid, HEAPTAP, true);
        }
    }

    /**
     * heaptap's JSON dump of the target's capture: each AccuracyTarget site's estimated bytes into
     * {@code column} of the allocated table and, with {@code gc}, its proven live bytes into the live table.
     */
    @SuppressWarnings("unchecked")
    private void readDump(String pid, String column, boolean gc) throws Exception {
        Path out = Files.createTempFile("heaptap-accuracy-", ".json");
        List<String> dump = new ArrayList<>(List.of("dump", pid, "--format", "json", "--out", out.toString()));
        if (gc) {
            dump.add("--gc");
        }
        commands.heaptap(dump.toArray(String[]::new));
        Map<String, Object> profile = (Map<String, Object>) JsonReader.parse(Files.readString(out));
        Files.delete(out);
        for (Object o : (List<Object>) profile.get("sites")) {
            Map<String, Object> site = (Map<String, Object>) o;
            String name = siteOf((List<Object>) site.get("stack"));
            if (name != null) {
                add(allocated, name, column, ((JsonReader.Number) site.get("estimatedBytes")).asDouble());
                if (gc && site.get("live") instanceof Map<?, ?> l && l.get("proven") instanceof Map<?, ?> proven) {
                    add(live, name, column, ((JsonReader.Number) proven.get("estimatedBytes")).asDouble());
                }
            }
        }
    }

    /**
     * A capture at heaptap's defaults, as long as the goal's: the sample-rate target decides the interval,
     * so the number of samples (and the estimates' spread) follows the capture's length, not the bytes.
     * The target repeats its allocation plan until the capture has lasted {@link #DEFAULT_CAPTURE}.
     */
    private void heaptapDefault(BenchTarget.Jdk jdk) throws Exception {
        try (BenchTarget t = new BenchTarget(jdk, classes, AccuracyTarget.class, List.of("-Dbench.allocMib=" + (quick ? 8 : 64)))) {
            String pid = Long.toString(t.pid());
            commands.heaptap("start", pid, "--duration", "1h");
            long end = System.nanoTime() + (quick ? Duration.ofSeconds(1) : DEFAULT_CAPTURE).toNanos();
            do {
                truth(allocated, t.command("alloc", "allocated"), HEAPTAP_DEFAULT);
            } while (System.nanoTime() < end);
            commands.heaptap("stop", pid);
            readDump(pid, HEAPTAP_DEFAULT, false);
        }
    }

    /** The innermost AccuracyTarget site method of a heaptap JSON stack (innermost frame first). */
    @SuppressWarnings("unchecked")
    private static String siteOf(List<Object> stack) {
        for (Object o : stack) {
            Map<String, Object> frame = (Map<String, Object>) o;
            Matcher m = SITE.matcher(frame.get("class") + "." + frame.get("method"));
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }

    private void jfr(BenchTarget.Jdk jdk) throws Exception {
        try (BenchTarget t = target(jdk)) {
            String pid = Long.toString(t.pid());
            String jcmd = jdk.bin("jcmd").toString();
            Path out = Files.createTempFile("heaptap-accuracy-", ".jfr");
            commands.run(List.of(jcmd, pid, "JFR.start", "name=accuracy", "settings=profile"));
            plan(t, JFR, JFR_OLD);
            commands.run(List.of(jcmd, pid, "GC.run"));
            commands.run(List.of(jcmd, pid, "JFR.stop", "name=accuracy", "filename=" + out));
            String sums = commands.output(List.of(jdk.bin("java").toString(), "-cp", classes.toString(), JfrSites.class.getName(),
                    out.toString()));
            Files.delete(out);
            for (String line : sums.lines().toList()) {
                String[] w = line.split(" ");
                add(w[0].equals("alloc") ? allocated : live, w[1], w[0].equals("alloc") ? JFR : JFR_OLD, Double.parseDouble(w[2]));
            }
        }
    }

    /** async-profiler 4.6 with {@code total}, so collapsed counts are bytes; in {@code live} mode, only objects still alive. */
    private void asyncProfiler(BenchTarget.Jdk jdk, boolean liveMode) throws Exception {
        try (BenchTarget t = target(jdk)) {
            String pid = Long.toString(t.pid());
            String jcmd = jdk.bin("jcmd").toString();
            Path out = Files.createTempFile("heaptap-accuracy-", ".collapsed");
            String tool = liveMode ? ASYNC_LIVE : ASYNC;
            commands.agentLoad(jdk.bin("jcmd"), t.pid(), asyncProfiler, "start,event=alloc,alloc=512k,total" + (liveMode ? ",live" : ""));
            plan(t, liveMode ? "unused " + tool : tool, liveMode ? tool : "unused " + tool);
            commands.run(List.of(jcmd, pid, "GC.run"));
            commands.agentLoad(jdk.bin("jcmd"), t.pid(), asyncProfiler, "stop,total,collapsed,file=" + out);
            for (String line : Files.readAllLines(out)) {
                Matcher m = SITE.matcher(line);
                String site = null;
                while (m.find()) {
                    site = m.group(1);
                }
                if (site != null) {
                    add(liveMode ? live : allocated, site, tool, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
                }
            }
            Files.delete(out);
        }
    }
}
