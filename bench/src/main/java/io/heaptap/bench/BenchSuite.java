package io.heaptap.bench;

import io.heaptap.jmx.StatusView;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.census.ClassCount;
import io.heaptap.profile.census.ClassHistogram;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * heaptap's benchmark suite: overhead next to JFR and async-profiler, capture speed, and memory,
 * written as a Markdown table. Run it with {@code bench/run}; {@code --quick} is the smoke run.
 *
 * <p>Overhead is measured inside one target JVM per tool and repetition: warm-up, then windows off and
 * on alternating ({@link #OVERHEAD_CYCLES} on-windows); each on-window is compared with its two
 * off-neighbours, so JIT and machine drift largely cancel. Tools are run in a shuffled order per
 * repetition.
 */
public final class BenchSuite {
    private final Path jar;
    private final Path classes;
    private final Path asyncProfiler;
    private final boolean quick;
    private final int reps;
    private final List<BenchTarget.Jdk> jdks;
    private final Commands commands;
    private final List<String> report = new ArrayList<>();
    /** Figures the goals table judges, by {@link Goals}' keys. */
    private final Map<String, Double> measured = new LinkedHashMap<>();
    /** Sections to run; all by default. */
    private final Set<String> sections;
    /** "--tools 'heaptap default,heaptap 512k live'": the overhead section's tools whose names start so; null: all. */
    private List<String> toolPrefixes;
    /** The footprint section's shapes ({@code --footprint-heaps 256m}, {@code --footprint-collectors ZGC}); null for all. */
    private List<String> footprintHeaps;
    private List<String> footprintCollectors;

    /**
     * Every measuring window of the quick (smoke) run: long enough for a window to count thousands of
     * operations and a GC pause or two, so each table is well-formed; its numbers mean nothing.
     */
    static final long SMOKE_MILLIS = 300;

    static final List<String> SECTIONS = List.of("overhead", "speed", "attach", "memory", "gc", "humongous", "dump", "accuracy",
            "footprint", "coverage", "census");

    private BenchSuite(Path jar, Path classes, Path asyncProfilerJar, boolean quick, int reps, List<BenchTarget.Jdk> jdks,
            Set<String> sections) throws IOException {
        this.sections = sections;
        this.jar = jar;
        this.classes = classes;
        this.quick = quick;
        this.reps = reps;
        this.jdks = jdks;
        this.asyncProfiler = extractAsyncProfiler(asyncProfilerJar);
        this.commands = new Commands(Path.of(System.getProperty("java.home"), "bin", "java"), jar);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchArguments.parse(args);
        boolean quick = opts.containsKey("quick");
        BenchSuite suite = new BenchSuite(Path.of(opts.get("jar")), Path.of(opts.get("classes")),
                Path.of(opts.get("async-profiler")), quick, Integer.parseInt(opts.getOrDefault("reps", quick ? "1" : "5")),
                jdks(opts.get("jdks")), sections(opts.get("only")));
        suite.toolPrefixes = opts.containsKey("tools") ? List.of(opts.get("tools").split(",")) : null;
        suite.footprintHeaps = opts.containsKey("footprint-heaps") ? List.of(opts.get("footprint-heaps").split(",")) : null;
        suite.footprintCollectors = opts.containsKey("footprint-collectors") ? List.of(opts.get("footprint-collectors").split(",")) : null;
        // The run's own report, not bench/RESULTS.md: that file holds the current figures as tables, folded
        // in by hand, and its history lives in git.
        Path out = Path.of(opts.getOrDefault("out", "bench/target/results.md"));
        Files.createDirectories(out.toAbsolutePath().getParent());
        // Rewritten after every section, so a run that is stopped part-way (a long run on a shared
        // machine) keeps what it measured, marked as unfinished.
        suite.runAll(String.join(" ", args), () -> Files.writeString(out, String.join("\n", suite.report)
                + "\n\n_This run is unfinished: the sections above are complete, the rest is still running or was stopped._\n"));
        Files.writeString(out, String.join("\n", suite.report) + "\n");
        System.out.println("wrote " + out);
    }

    /** "--only accuracy,speed": a comma-separated subset of {@link #SECTIONS}. */
    private static Set<String> sections(String only) {
        if (only == null) {
            return new LinkedHashSet<>(SECTIONS);
        }
        Set<String> chosen = new LinkedHashSet<>(List.of(only.split(",")));
        if (!SECTIONS.containsAll(chosen)) {
            throw new IllegalArgumentException("--only takes a comma-separated subset of " + SECTIONS + ", not " + only);
        }
        return chosen;
    }

    /** Saves the report so far; called after every section. */
    interface Checkpoint {
        void save() throws IOException;
    }

    void runAll(String commandLine, Checkpoint checkpoint) throws Exception {
        report.add("# heaptap benchmark results");
        report.add("");
        report.add("- date: " + LocalDate.now() + (quick ? " (quick smoke run: numbers are not meaningful)" : ""));
        report.add("- machine: " + machine());
        report.add("- JDKs: " + String.join(", ", jdks.stream().map(BenchTarget.Jdk::name).toList()));
        report.add("- command: `bench/run " + commandLine.replaceAll("--(jar|classes|async-profiler|out) \\S+ ?", "").trim() + "`");
        report.add("- repetitions: " + reps + "; ratios are median (min–max) over repetitions (the overhead section: over every on-window),"
                + " to the same JVM's off-windows");
        report.add("");
        BenchTarget.Jdk newest = jdks.get(jdks.size() - 1);
        if (sections.contains("overhead")) {
            for (BenchTarget.Jdk jdk : jdks) {
                overhead(jdk, AllocationHeavyTarget.class, List.of(), "allocation-heavy (2 threads)", tools());
                checkpoint.save();
                // A service allocates under its framework's frames: every kept sample walks them (150 ns a frame or more).
                overhead(jdk, AllocationHeavyTarget.class, List.of("-Dbench.depth=" + DEEP_STACK),
                        "allocation-heavy, " + DEEP_STACK + " compiled frames deep (2 threads)", quick ? tools().stream().limit(1).toList() : tools());
                checkpoint.save();
                // The smoke run shows the mixed target runs under a tool; every tool's start and stop is shown on the first.
                overhead(jdk, MixedTarget.class, List.of(), "mixed: allocation, 100 MB working set, CPU (2 threads)",
                        quick ? tools().stream().limit(1).toList() : tools());
                checkpoint.save();
            }
        }
        if (sections.contains("accuracy")) {
            for (BenchTarget.Jdk jdk : jdks) {
                report.addAll(new Accuracy(classes, asyncProfiler, commands, quick).run(jdk, reps, measured));
            }
        }
        checkpoint.save();
        if (sections.contains("speed")) {
            speed(newest);
        }
        checkpoint.save();
        if (sections.contains("attach")) {
            for (BenchTarget.Jdk jdk : jdks) {
                report.addAll(new AttachPhasesBench(classes, commands).run(jdk, quick ? 1 : Math.max(3, reps)));
            }
        }
        checkpoint.save();
        if (sections.contains("memory")) {
            memory(newest);
        }
        checkpoint.save();
        if (sections.contains("gc")) {
            for (String gc : List.of("-XX:+UseG1GC", "-XX:+UseZGC")) {
                weakRefCost(newest, gc);
            }
        }
        checkpoint.save();
        if (sections.contains("humongous")) {
            for (BenchTarget.Jdk jdk : jdks) {
                humongous(jdk);
            }
        }
        checkpoint.save();
        if (sections.contains("dump")) {
            dumpTimes(newest);
        }
        checkpoint.save();
        if (sections.contains("footprint")) {
            report.addAll(new FootprintBench(classes, commands, quick, footprintHeaps, footprintCollectors).run(newest, reps));
        }
        checkpoint.save();
        if (sections.contains("coverage")) {
            report.addAll(new CoverageBench(classes, commands, quick).run(newest, reps));
        }
        checkpoint.save();
        if (sections.contains("census")) {
            for (BenchTarget.Jdk jdk : jdks) {
                report.addAll(new CensusBench(classes, commands, quick).run(jdk, reps));
                checkpoint.save();
            }
        }
        checkpoint.save();
        report.addAll(Goals.table(jdks, measured));
    }

    /** GC pauses with a full table of weak references to live objects, against the same JVM without. */
    private void weakRefCost(BenchTarget.Jdk jdk, String gc) throws Exception {
        long window = quick ? SMOKE_MILLIS : 10_000;
        List<Double> before = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> throughput = new ArrayList<>();
        String tracked = "?";
        for (int rep = 0; rep < reps; rep++) {
            try (BenchTarget t = new BenchTarget(jdk, classes, RetainingTarget.class, List.of(gc))) {
                String pid = Long.toString(t.pid());
                t.window(quick ? SMOKE_MILLIS : 5000);
                BenchTarget.Window baseline = t.window(window);
                before.add(pausesPerSecond(baseline, window));
                // The 130 MB set rebuilt while sampling at 4 KiB (heaptap's minimum) leaves ~31k of a 128k table
                // with live objects; then sampling stops, so the next window measures the weak references alone.
                commands.heaptap("start", pid, "--duration", "1h", "--interval", "4k", "--live-budget", "131072");
                t.command("fill", "filled");
                commands.heaptap("stop", pid);
                t.window(quick ? SMOKE_MILLIS : 2000);
                tracked = String.format(Locale.ROOT, "%,d", commands.status(pid).getWeakRefs());
                BenchTarget.Window held = t.window(window);
                with.add(pausesPerSecond(held, window));
                throughput.add(held.opsPerSecond() / baseline.opsPerSecond());
            }
        }
        report.add("## GC pauses with 64k tracked weak references (" + jdk.name() + ", " + gc + ", 130 MB live set)");
        report.add("");
        report.add("| | GC pause, ms per second of run time, median (min–max) | throughput vs before |");
        report.add("|---|---|---|");
        report.add("| no weak references (before heaptap) | " + new Stats(before).plain() + " | 1 |");
        report.add("| " + tracked + " weak references held (sampling stopped) | " + new Stats(with).plain() + " | "
                + new Stats(throughput).ratio() + " |");
        report.add("");
    }

    /**
     * What the large-object stratum costs on G1 (throughput and GC pause time while heaptap samples a
     * target churning 3 MiB arrays, against the same JVM before) and whether its figures stay possible:
     * the site's live estimate before and after a forced collection (all of it garbage).
     */
    private void humongous(BenchTarget.Jdk jdk) throws Exception {
        long window = quick ? SMOKE_MILLIS : 10_000;
        List<Double> before = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> throughput = new ArrayList<>();
        String live = "?";
        for (int rep = 0; rep < reps; rep++) {
            try (BenchTarget t = new BenchTarget(jdk, classes, HumongousTarget.class, List.of("-XX:+UseG1GC", "-Xmx4g"))) {
                String pid = Long.toString(t.pid());
                t.window(quick ? SMOKE_MILLIS : 5000);
                BenchTarget.Window baseline = t.window(window);
                before.add(pausesPerSecond(baseline, window));
                commands.heaptap("start", pid, "--duration", "1h");
                t.window(quick ? SMOKE_MILLIS : 2000);
                BenchTarget.Window sampled = t.window(window);
                with.add(pausesPerSecond(sampled, window));
                throughput.add(sampled.opsPerSecond() / baseline.opsPerSecond());
                live = firstLines(commands.status(pid).getLiveReport(), 3) + " / after --gc: "
                        + lines(commands.heaptapOutput("dump", pid, "--gc", "--format", "text"), "  proven live:", 1);
                commands.heaptap("stop", pid);
            }
        }
        report.add("## The large-object stratum on a target churning 3 MiB arrays (" + jdk.name() + ", G1, -Xmx4g)");
        report.add("");
        report.add("| | GC pause, ms per second of run time, median (min–max) | throughput (arrays/s) vs before |");
        report.add("|---|---|---|");
        report.add("| before heaptap | " + new Stats(before).plain() + " | 1 |");
        report.add("| heaptap sampling at 512 KiB with live tracking | " + new Stats(with).plain() + " | "
                + new Stats(throughput).ratio() + " |");
        report.add("");
        report.add("Live view of the last repetition while sampling: " + live.replace("|", "/"));
        report.add("");
    }

    /** The first {@code count} lines of the status's live report, joined. */
    private static String firstLines(List<String> report, int count) {
        return String.join(" ", report.subList(0, Math.min(count, report.size())));
    }

    /** {@code count} lines of a command's output from the first that starts with {@code prefix}, trimmed and joined. */
    private static String lines(String output, String prefix, int count) {
        List<String> all = output.lines().toList();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).startsWith(prefix)) {
                return String.join(" ", all.subList(i, Math.min(all.size(), i + count)).stream().map(String::trim).toList());
            }
        }
        return "(no '" + prefix.trim() + "' line)";
    }

    private static double pausesPerSecond(BenchTarget.Window w, long windowMillis) {
        return w.pauseMillis() * 1000.0 / windowMillis;
    }

    /** Dump time against the number of tracked objects: CLI wall time of dump minus that of status. */
    private void dumpTimes(BenchTarget.Jdk jdk) throws Exception {
        report.add("## Dump time against tracked objects (" + jdk.name() + ", G1, 130 MB live set)");
        report.add("");
        report.add("| live budget | tracked | native memory | `dump --format pprof` wall | `status` wall (same CLI, attach, JMX) | difference ≈ dump work | pprof size |");
        report.add("|---|---|---|---|---|---|---|");
        for (int budget : quick ? new int[] {1024} : new int[] {1024, 16_384, 65_536, 262_144}) {
            try (BenchTarget t = new BenchTarget(jdk, classes, RetainingTarget.class, List.of())) {
                String pid = Long.toString(t.pid());
                commands.heaptap("start", pid, "--duration", "1h", "--interval", "4k", "--live-budget", Integer.toString(budget));
                t.command("fill", "filled");
                commands.heaptap("stop", pid);
                StatusView status = commands.status(pid);
                List<Double> dump = new ArrayList<>();
                List<Double> stat = new ArrayList<>();
                Path out = Files.createTempFile("heaptap-bench-", ".pb.gz");
                for (int i = 0; i < (quick ? 1 : 3); i++) {
                    stat.add(commands.heaptap("status", pid));
                    dump.add(commands.heaptap("dump", pid, "--out", out.toString()));
                }
                long size = Files.size(out);
                Files.delete(out);
                long trackedObjects = status.getWeakRefs();
                if (trackedObjects >= 65_536 && !measured.containsKey(Goals.DUMP_64K_MILLIS)) {
                    measured.put(Goals.DUMP_64K_MILLIS, new Stats(dump).median() - new Stats(stat).median());
                    measured.put(Goals.DUMP_64K_TRACKED, (double) trackedObjects);
                    measured.put(Goals.NATIVE_64K_BYTES, (double) status.getNativeMemoryBytes());
                }
                report.add(String.format(Locale.ROOT, "| %,d | %,d | %s | %s | %s | %.0f ms | %,d bytes |", budget,
                        trackedObjects, HumanUnits.formatBytes(status.getNativeMemoryBytes()), new Stats(dump).millis(),
                        new Stats(stat).millis(), new Stats(dump).median() - new Stats(stat).median(), size));
            }
        }
        report.add("");
    }

    private List<Tool> tools() {
        List<Tool> all = List.of(Tool.heaptapDefault(true), Tool.heaptapContinuous(), Tool.heaptap("512k", false), Tool.heaptap("512k", true),
                Tool.heaptap("64k", true), Tool.jfrProfile(), Tool.asyncProfiler(asyncProfiler, "alloc", "512k", false),
                Tool.asyncProfiler(asyncProfiler, "alloc", "512k", true));
        if (toolPrefixes == null) {
            return all;
        }
        List<Tool> chosen = new ArrayList<>(all.stream().filter(t -> toolPrefixes.stream().anyMatch(t.name()::startsWith)).toList());
        // Any other heaptap setting by name, e.g. 'heaptap 1000/s live', 'heaptap 128k no-live' or 'heaptap default no-live',
        // to compare settings side by side.
        for (String prefix : toolPrefixes) {
            Matcher m = HEAPTAP_SETTING.matcher(prefix.strip());
            if (m.matches() && chosen.stream().noneMatch(t -> t.name().equals(prefix.strip()))) {
                boolean live = m.group(2).equals("live");
                chosen.add(m.group(1).equals("default") ? Tool.heaptapDefault(live) : Tool.heaptap(m.group(1), live));
            } else if (!m.matches() && all.stream().noneMatch(t -> t.name().startsWith(prefix.strip()))) {
                // a misspelt tool was dropped silently before, and the run measured less than asked
                throw new IllegalArgumentException("--tools: no tool is named like '" + prefix.strip() + "'");
            }
        }
        return chosen;
    }

    /**
     * On-windows per target JVM in the overhead section (each between two off-windows). Three give a
     * tool nine ratios over three repetitions: enough for a mean's 95% interval of about 1-2% where one
     * ratio moves 3-7%. A tool whose off does not end it (continuous mode) gets one.
     */
    static final int OVERHEAD_CYCLES = 3;

    /** Frames below Thread.run in the deep-stack overhead target: a service's hot paths, compiled. */
    static final int DEEP_STACK = 60;

    private static final Pattern HEAPTAP_SETTING = Pattern.compile("heaptap (default|\\d+[kKmM]?|\\d+/s) (live|no-live)");

    private void overhead(BenchTarget.Jdk jdk, Class<?> target, List<String> jvmArgs, String title, List<Tool> tools) throws Exception {
        long warm = quick ? SMOKE_MILLIS : 8000;
        long window = quick ? SMOKE_MILLIS : 5000;
        long settle = quick ? SMOKE_MILLIS : 2000;
        Map<String, List<Double>> during = new LinkedHashMap<>();
        Map<String, List<Double>> after = new LinkedHashMap<>();
        Map<String, List<Double>> cpuDuring = new LinkedHashMap<>();
        Random shuffle = new Random(42);
        double[] load = {Double.MAX_VALUE, 0};
        for (int rep = 0; rep < reps; rep++) {
            List<Tool> order = new ArrayList<>(tools);
            Collections.shuffle(order, shuffle);
            for (Tool tool : order) {
                try (BenchTarget t = new BenchTarget(jdk, classes, target, jvmArgs)) {
                    // Off, on, off, on, ... in one JVM: each on-window is judged against the mean of its two
                    // neighbours, so a drift of the machine or of the JIT during the run cancels, and a JVM
                    // gives several ratios: one window pair moves 3-7% on this machine with nothing changed.
                    t.measure(warm);
                    BenchTarget.Window before = t.window(window);
                    int cycles = quick || !tool.offEndsIt() ? 1 : OVERHEAD_CYCLES;
                    for (int cycle = 0; cycle < cycles; cycle++) {
                        tool.on().run(t, commands);
                        // Steady state: the attach's one-time work in the target (heaptap's MBean registration,
                        // class loading and JIT of its code: about 0.5 s of CPU) is the attach section's cost.
                        t.measure(settle);
                        BenchTarget.Window on = t.window(window);
                        tool.off().run(t, commands);
                        t.measure(settle);
                        BenchTarget.Window off = t.window(window);
                        double offOps = tool.offEndsIt() ? (before.opsPerSecond() + off.opsPerSecond()) / 2 : before.opsPerSecond();
                        double offCpu = tool.offEndsIt() ? (before.cpuNanosPerOp() + off.cpuNanosPerOp()) / 2 : before.cpuNanosPerOp();
                        during.computeIfAbsent(tool.name(), k -> new ArrayList<>()).add(on.opsPerSecond() / offOps);
                        after.computeIfAbsent(tool.name(), k -> new ArrayList<>()).add(off.opsPerSecond() / before.opsPerSecond());
                        cpuDuring.computeIfAbsent(tool.name(), k -> new ArrayList<>()).add(offCpu / on.cpuNanosPerOp());
                        before = off;
                    }
                }
                double now = MachineLoad.now();
                load[0] = Math.min(load[0], now);
                load[1] = Math.max(load[1], now);
            }
        }
        if (target == AllocationHeavyTarget.class && jvmArgs.isEmpty()) {
            during.forEach((tool, ratios) -> {
                Stats stats = new Stats(ratios);
                measured.put(Goals.overhead(jdk, tool), stats.median());
                measured.put(Goals.overheadMean(jdk, tool), stats.mean());
                measured.put(Goals.overheadHalfWidth(jdk, tool), stats.halfWidth95());
            });
        }
        report.add("## Overhead: " + title + ", " + jdk.name());
        report.add("");
        report.add("Windows off, on, off, ... alternate in one JVM per tool and round (" + (quick ? 1 : OVERHEAD_CYCLES) + " on-window(s) of"
                + " " + window / 1000.0 + " s each; continuous mode, whose stop leaves sampling running, one, judged against the"
                + " window before): throughput while on is relative to the mean of the two neighbouring off-windows."
                + " 1.000 = no cost. Median (min–max) over every on-window, then the mean with its 95% interval (Student's t),"
                + " which says whether a goal such as 0.99 is within what this run can tell apart."
                + " After stop: each off-window over the one before it."
                + " Each window but the first starts 2 s after the tool's start or stop returned (steady state;"
                + " the attach's one-time cost is separate)."
                + " CPU-derived: the process's CPU time per operation off over that on, the same JVM's windows;"
                + " it judges the tool's cost on a shared machine, where throughput moves with everything else."
                + String.format(Locale.ROOT, " Load average during the section: %.1f–%.1f.", load[0], load[1]));
        report.add("");
        report.add("| tool | throughput while on | mean (95% interval) | after stop | CPU-derived throughput while on |");
        report.add("|---|---|---|---|---|");
        for (String name : during.keySet()) {
            Stats on = new Stats(during.get(name));
            report.add("| " + name + " | " + on.ratio() + " | " + on.meanInterval() + " | " + new Stats(after.get(name)).ratio()
                    + " | " + new Stats(cpuDuring.get(name)).ratio() + " |");
        }
        report.add("");
    }

    private void speed(BenchTarget.Jdk jdk) throws Exception {
        int n = quick ? 1 : 5;
        List<Double> version = new ArrayList<>();
        List<Double> firstStart = new ArrayList<>();
        List<Double> captureFresh = new ArrayList<>();
        List<Double> captureAgain = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            version.add(commands.heaptap("--version"));
            try (BenchTarget t = new BenchTarget(jdk, classes, AllocationHeavyTarget.class, List.of())) {
                t.measure(quick ? SMOKE_MILLIS : 2000);
                String pid = Long.toString(t.pid());
                firstStart.add(commands.heaptap("start", pid, "--duration", "1s"));
                commands.heaptap("stop", pid);
            }
            try (BenchTarget t = new BenchTarget(jdk, classes, AllocationHeavyTarget.class, List.of())) {
                t.measure(quick ? SMOKE_MILLIS : 2000);
                String pid = Long.toString(t.pid());
                captureFresh.add(commands.heaptap("capture", pid, "--duration", "1s"));
                captureAgain.add(commands.heaptap("capture", pid, "--duration", "1s"));
            }
        }
        List<Double> attach = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            attach.add(firstStart.get(i) - version.get(i));
        }
        measured.put(Goals.ATTACH_MILLIS, new Stats(attach).median());
        report.add("## Speed (" + jdk.name() + ", allocation-heavy target)");
        report.add("");
        report.add("| measurement | wall time, median (min–max) |");
        report.add("|---|---|");
        report.add("| `heaptap --version` (CLI JVM start-up alone) | " + new Stats(version).millis() + " |");
        report.add("| `heaptap start` on a JVM heaptap has never touched | " + new Stats(firstStart).millis() + " |");
        report.add("| attach to first sample: `start` minus CLI start-up (attach, load both agents, JMX connect, start; "
                + "the first sample follows within microseconds at this target's allocation rate) | " + new Stats(attach).millis() + " |");
        report.add("| `heaptap capture --duration 1s`, first attach | " + new Stats(captureFresh).millis() + " |");
        report.add("| `heaptap capture --duration 1s`, agent already loaded | " + new Stats(captureAgain).millis() + " |");
        report.add("");
    }

    private void memory(BenchTarget.Jdk jdk) throws Exception {
        long seconds = quick ? 1 : 30;
        try (BenchTarget t = new BenchTarget(jdk, classes, AllocationHeavyTarget.class, List.of())) {
            t.measure(quick ? SMOKE_MILLIS : 5000);
            long rssBefore = t.rssKiB();
            long threadsBefore = t.threads();
            String pid = Long.toString(t.pid());
            String histogramBefore = commands.output(List.of(jdk.bin("jcmd").toString(), pid, "GC.class_histogram"));
            commands.heaptap("start", pid, "--duration", seconds + "s");
            t.measure(seconds * 1000 + 500);
            StatusView status = commands.status(pid);
            long rssAfter = t.rssKiB();
            long threadsAfter = t.threads();
            String histogram = commands.output(List.of(jdk.bin("jcmd").toString(), pid, "GC.class_histogram"));
            report.add("## Memory after a " + seconds + " s capture (" + jdk.name() + ", allocation-heavy target, -Xms=-Xmx=512m, pre-touched)");
            report.add("");
            report.add("| measurement | value |");
            report.add("|---|---|");
            report.add("| native memory of the agent's tables (agent's own count) | " + HumanUnits.formatBytes(status.getNativeMemoryBytes()) + " |");
            report.add(String.format(Locale.ROOT, "| samples in the capture | %,d (dropped %,d) |", status.getSamples(), status.getSamplesDropped()));
            report.add(String.format(Locale.ROOT, "| target RSS growth (agent, its classes' metaspace, JIT of them, JMX) | %.1f MiB |",
                    (rssAfter - rssBefore) / 1024.0));
            long[] before = heapHeld(histogramBefore, c -> true);
            long[] after = heapHeld(histogram, c -> true);
            long[] own = heapHeld(histogram, c -> c.startsWith("io.heaptap."));
            report.add(String.format(Locale.ROOT, "| Java heap held by io.heaptap.* objects (after GC) | %,d bytes in %,d objects |", own[1], own[0]));
            report.add(String.format(Locale.ROOT, "| Java heap held after GC, all classes, after the capture less before `start` (heaptap's classes"
                    + " and the JDK's they load: their mirrors, strings, reflection and JMX data) | %+,d bytes in %+,d objects, %+,d classes |",
                    after[1] - before[1], after[0] - before[0], heapHeld(histogram, "java.lang.Class"::equals)[0]
                    - heapHeld(histogramBefore, "java.lang.Class"::equals)[0]));
            report.add("| threads added (heaptap-timer, and the JDK's JMX/RMI and attach listener threads) | "
                    + (threadsAfter - threadsBefore) + " |");
            // A leak watch with --gc then loads the census and the watch's code, and keeps its ended report.
            commands.heaptap("leaks", pid, "--duration", (quick ? 2 : 20) + "s", "--every", (quick ? 1 : 5) + "s", "--gc", "--format", "json");
            long[] watched = heapHeld(commands.output(List.of(jdk.bin("jcmd").toString(), pid, "GC.class_histogram")), c -> true);
            report.add(String.format(Locale.ROOT, "| the same after a %d s `leaks --gc` watch too, less before `start` | %+,d bytes in %+,d objects |",
                    quick ? 2 : 20, watched[1] - before[1], watched[0] - before[0]));
            report.add("");
        }
    }

    /** Objects and bytes of the classes {@code named} in a class histogram, as heaptap's census parses one. */
    private static long[] heapHeld(String histogram, java.util.function.Predicate<String> named) {
        long[] held = new long[2];
        for (ClassCount c : ClassHistogram.parse(histogram, Integer.MAX_VALUE, 0, 0, 0, 0).top()) {
            if (named.test(c.name())) {
                held[0] += c.instances();
                held[1] += c.bytes();
            }
        }
        return held;
    }

    private static String machine() {
        String cpu = "?";
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("?");
        } catch (IOException e) {
            // keep "?"
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + cpu + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    static List<BenchTarget.Jdk> jdks(String spec) throws IOException {
        List<Path> homes = new ArrayList<>();
        if (spec != null && !spec.isBlank()) {
            for (String h : spec.split(":")) {
                homes.add(Path.of(h));
            }
        } else {
            homes.add(Path.of(System.getProperty("java.home")));
            try (Stream<Path> all = Files.list(Path.of("/usr/lib/jvm"))) {
                all.filter(p -> p.getFileName().toString().startsWith("temurin-")).sorted().forEach(homes::add);
            }
        }
        List<BenchTarget.Jdk> jdks = new ArrayList<>();
        Pattern version = Pattern.compile("^JAVA_VERSION=\"((\\d+)[^\"]*)\"", Pattern.MULTILINE);
        for (Path home : homes) {
            Matcher m = version.matcher(Files.readString(home.resolve("release")));
            if (m.find()) {
                jdks.add(new BenchTarget.Jdk("JDK " + m.group(1), home, Integer.parseInt(m.group(2))));
            }
        }
        jdks.sort((a, b) -> Integer.compare(a.feature(), b.feature()));
        return jdks;
    }

    private static Path extractAsyncProfiler(Path jar) throws IOException {
        Path lib = Files.createTempDirectory("heaptap-bench-").resolve("libasyncProfiler.so");
        try (ZipFile zip = new ZipFile(jar.toFile()); InputStream in = zip.getInputStream(zip.getEntry("linux-x64/libasyncProfiler.so"))) {
            Files.copy(in, lib);
        }
        lib.toFile().deleteOnExit();
        return lib;
    }
}
