package io.heaptap.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipFile;

/**
 * The real-service benchmark (bench/run-service): what heaptap, async-profiler and JFR cost a Spring Boot
 * service under a constant load, on each JDK.
 *
 * <p>Per JDK, one service JVM (per repetition): started, warmed with saturating load until its throughput
 * is steady, then a fixed rate (a share of that throughput) chosen; then windows off, on, off, on, ..., the
 * tools in a shuffled order each round. Each window is a fixed-rate part (latency from each request's due time, the service's CPU per
 * request) and a saturation part (throughput). Each on-window is judged against the mean of its two
 * off-neighbours, so the JIT's and the machine's drift largely cancel. The driver, its load client and the
 * tools' commands share the machine with the service: the load average is reported with the figures.
 *
 * <p>It lives in the bench's package to reuse its Stats, MachineLoad, Commands and JDK discovery.
 */
public final class ServiceBench {
    /** The options, with their full-run defaults (seconds where a time); cycles: rounds over the tools per JVM. */
    record Settings(int reps, int cycles, double window, double saturation, double settle, double warmStep, double warmMax,
            double load, int fixedConnections, int saturationConnections) {
        static Settings full() {
            return new Settings(1, 3, 10, 4, 2, 5, 120, 0.5, 32, 4);
        }

        /** The smoke run's: every part runs, briefly; its numbers mean nothing. */
        static Settings quick() {
            return new Settings(1, 1, 0.5, 0.3, 0.2, 0.5, 1, 0.3, 8, 2);
        }

        /** Roughly how long one JVM takes with {@code tools} tools, start-up and the tools' commands aside. */
        double secondsPerJvm(int tools) {
            return warmMax / 2 + settle + (window + saturation) * (1 + 2 * cycles * tools) + 2 * cycles * tools * settle;
        }
    }

    private final Settings settings;
    private final String serviceClasspath;
    private final Commands commands;
    private final ServiceResults results = new ServiceResults();
    private double loadMin = Double.MAX_VALUE;
    private double loadMax;

    ServiceBench(Settings settings, String serviceClasspath, Path heaptapJar) {
        this.settings = settings;
        this.serviceClasspath = serviceClasspath;
        this.commands = new Commands(Path.of(System.getProperty("java.home"), "bin", "java"), heaptapJar);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = BenchArguments.parse(args);
        Settings s = opts.containsKey("quick") ? Settings.quick() : Settings.full();
        s = new Settings(integer(opts, "reps", s.reps()), integer(opts, "cycles", s.cycles()), number(opts, "window", s.window()),
                number(opts, "saturation", s.saturation()), number(opts, "settle", s.settle()), number(opts, "warm-step", s.warmStep()),
                number(opts, "warm-max", s.warmMax()), number(opts, "load", s.load()), s.fixedConnections(), s.saturationConnections());
        ServiceBench bench = new ServiceBench(s, required(opts, "service-classpath"), Path.of(required(opts, "jar")));
        Path asyncProfiler = extractAsyncProfiler(Path.of(required(opts, "async-profiler")));
        long capture = Math.round(s.settle() + s.window() + s.saturation()) + 120;
        List<ServiceTool> all = List.of(ServiceTool.heaptapDefaults(capture), ServiceTool.asyncProfiler(asyncProfiler, false),
                ServiceTool.asyncProfiler(asyncProfiler, true), ServiceTool.jfrProfile());
        List<ServiceTool> tools = chosen(all, opts.get("tools"));
        List<BenchTarget.Jdk> jdks = BenchSuite.jdks(opts.get("jdks"));
        System.err.printf(Locale.ROOT, "service bench: %d JDK(s) x %d JVM(s), %d tool(s) in each, about %.0f min%n", jdks.size(), s.reps(),
                tools.size(), jdks.size() * s.reps() * (s.secondsPerJvm(tools.size()) + 30 + 8.0 * s.cycles() * tools.size()) / 60);
        String command = "bench/run-service " + String.join(" ", args).replaceAll("--(jar|async-profiler|service-classpath|out) \\S+ ?", "").trim();
        boolean quick = opts.containsKey("quick");
        // The file is written after every JVM, so a run stopped part-way keeps what it measured.
        Checkpoint save = () -> {
            if (opts.containsKey("out")) {
                Files.writeString(Path.of(opts.get("out")), String.join("\n", bench.report(jdks, command, quick))
                        + "\n\n_This run is unfinished: the rows above are complete, the rest is still running or was stopped._\n");
            }
        };
        for (BenchTarget.Jdk jdk : jdks) {
            bench.run(jdk, tools, save);
        }
        String text = String.join("\n", bench.report(jdks, command, quick)) + "\n";
        System.out.print(text);
        if (opts.containsKey("out")) {
            Files.writeString(Path.of(opts.get("out")), text);
        }
        if (bench.results.errors() > 0) {
            System.err.println("service bench: " + bench.results.errors() + " request(s) failed (see the last column)");
        }
    }

    interface Checkpoint {
        void save() throws IOException;
    }

    void run(BenchTarget.Jdk jdk, List<ServiceTool> tools, Checkpoint checkpoint) throws Exception {
        Random shuffle = new Random(42);
        for (int rep = 0; rep < settings.reps(); rep++) {
            System.err.println("service bench: " + jdk.name() + ", JVM " + (rep + 1));
            measure(jdk, tools, shuffle);
            double now = MachineLoad.now();
            loadMin = Math.min(loadMin, now);
            loadMax = Math.max(loadMax, now);
            checkpoint.save();
        }
    }

    /**
     * One service JVM: warm-up, then an off-window, and for each round every tool once in a shuffled order:
     * on-window, off-window. Each tool's on-window is judged against the off-windows either side of it.
     * One JVM for all the tools: a Spring Boot start and its warm-up take minutes on a loaded machine.
     */
    private void measure(BenchTarget.Jdk jdk, List<ServiceTool> tools, Random shuffle) throws Exception {
        try (ServiceProcess service = new ServiceProcess(jdk, serviceClasspath, List.of())) {
            InetSocketAddress address = service.awaitReady(600);
            LoadClient client = new LoadClient(address, service.pid());
            double rate = warmUp(jdk, tools, client);
            client.fixedRate(rate, millis(settings.settle()), settings.fixedConnections());
            ServiceResults.Window before = window(client, rate);
            for (int round = 0; round < settings.cycles(); round++) {
                List<ServiceTool> order = new ArrayList<>(tools);
                Collections.shuffle(order, shuffle);
                for (ServiceTool tool : order) {
                    System.err.println("service bench: " + jdk.name() + ", round " + (round + 1) + ", " + tool.name());
                    tool.on().run(jdk, service.pid(), commands);
                    // the tool's start-up work in the service (attach, class loading, JIT) is not its steady cost
                    client.fixedRate(rate, millis(settings.settle()), settings.fixedConnections());
                    ServiceResults.Window on = window(client, rate);
                    tool.off().run(jdk, service.pid(), commands);
                    client.fixedRate(rate, millis(settings.settle()), settings.fixedConnections());
                    ServiceResults.Window after = window(client, rate);
                    results.onWindow(jdk.name(), tool.name(), before, on, after);
                    results.offWindow(jdk.name(), tool.name(), after);
                    before = after;
                }
            }
        }
    }

    /**
     * Saturating load in steps until the last three steps' throughputs are within 5% of each other (the
     * JIT has compiled the hot paths, the heap has settled), or the cap; returns the fixed rate to use.
     */
    private double warmUp(BenchTarget.Jdk jdk, List<ServiceTool> tools, LoadClient client) throws IOException, InterruptedException {
        List<Double> steps = new ArrayList<>();
        long start = System.nanoTime();
        boolean steady = false;
        while (!steady && (System.nanoTime() - start) / 1e9 < settings.warmMax()) {
            steps.add(client.saturation(millis(settings.warmStep()), settings.saturationConnections()).perSecond());
            steady = steps.size() >= 3 && steadyTail(steps);
        }
        List<Double> tail = steps.subList(Math.max(0, steps.size() - 3), steps.size());
        double rate = Math.max(1, settings.load() * new Stats(tail).median());
        for (ServiceTool tool : tools) {
            results.warmedUp(jdk.name(), tool.name(), (System.nanoTime() - start) / 1e9, steady, rate);
        }
        return rate;
    }

    /** Whether the last three throughputs lie within 5% of each other. */
    static boolean steadyTail(List<Double> steps) {
        Stats tail = new Stats(steps.subList(steps.size() - 3, steps.size()));
        return tail.max() <= 1.05 * tail.min();
    }

    private ServiceResults.Window window(LoadClient client, double rate) throws IOException, InterruptedException {
        LoadClient.FixedRate fixed = client.fixedRate(rate, millis(settings.window()), settings.fixedConnections());
        LoadClient.Saturation saturation = client.saturation(millis(settings.saturation()), settings.saturationConnections());
        return new ServiceResults.Window(fixed, saturation);
    }

    List<String> report(List<BenchTarget.Jdk> jdks, String command, boolean quick) {
        List<String> out = new ArrayList<>();
        out.add("## Real service: a Spring Boot order desk under constant load (" + LocalDate.now()
                + (quick ? ", quick smoke run: numbers are not meaningful" : "") + ")");
        out.add("");
        out.add("- command: `" + command + "`");
        out.add("- JDKs: " + String.join(", ", jdks.stream().map(BenchTarget.Jdk::name).toList()));
        out.add(String.format(Locale.ROOT, "- load average (1 min) after each JVM: %.1f–%.1f; the service, the load client and the tools'"
                + " commands share the machine's %d cores", loadMin, loadMax, Runtime.getRuntime().availableProcessors()));
        out.add(String.format(Locale.ROOT, "- per JVM: warm-up with saturating load in %.0f s steps until three agree within 5%% (at most %.0f s);"
                + " then off, on, off, ... with %d round(s) over the tools in a shuffled order; each window %.0f s at a fixed rate (%.0f%% of the warm-up's throughput,"
                + " %d connections, latency from each request's due time) then %.0f s at saturation (%d connections); %.0f s of load"
                + " after each start and stop before the next window; %d service JVM(s) per JDK, every tool in it",
                settings.warmStep(), settings.warmMax(), settings.cycles(), settings.window(), settings.load() * 100,
                settings.fixedConnections(), settings.saturation(), settings.saturationConnections(), settings.settle(), settings.reps()));
        out.add("- service: Tomcat, Spring MVC, Jackson, Spring Data JPA (Hibernate) on H2 in memory; request mix 35% GET an order"
                + " (fetch join), 20% a customer's page of orders (paging, count, aggregate), 15% product search (derived query),"
                + " 20% PUT an order's lines (JSON in, lookups, orphan delete and insert), 10% POST a quote; -Xms1g -Xmx1g, G1");
        out.add("");
        out.add("Each figure is an on-window over the mean of its two off-neighbours in the same JVM: mean (95% interval, Student's t)"
                + " over every on-window. CPU per request (the service process's CPU from /proc over the fixed-rate part ÷ requests"
                + " answered) and latency: above 1 is the tool's cost; throughput: below 1 is.");
        out.add("");
        out.addAll(results.tables());
        out.add("");
        out.add("Issue #37's goals, judged by the 95% intervals:");
        out.add("");
        for (BenchTarget.Jdk jdk : jdks) {
            out.addAll(results.goals(jdk.name()));
        }
        return out;
    }

    private static List<ServiceTool> chosen(List<ServiceTool> all, String prefixes) {
        if (prefixes == null) {
            return all;
        }
        List<ServiceTool> chosen = new ArrayList<>();
        for (String prefix : prefixes.split(",")) {
            List<ServiceTool> matching = all.stream().filter(t -> t.name().startsWith(prefix.strip()) && !chosen.contains(t)).toList();
            if (matching.isEmpty()) {
                throw new IllegalArgumentException("--tools: no tool is named like '" + prefix.strip() + "' (tools: "
                        + String.join(", ", all.stream().map(ServiceTool::name).toList()) + ")");
            }
            chosen.addAll(matching);
        }
        return chosen;
    }

    private static long millis(double seconds) {
        return Math.round(seconds * 1000);
    }

    private static int integer(Map<String, String> opts, String name, int fallback) {
        return opts.containsKey(name) ? Integer.parseInt(opts.get(name)) : fallback;
    }

    private static double number(Map<String, String> opts, String name, double fallback) {
        return opts.containsKey(name) ? Double.parseDouble(opts.get(name)) : fallback;
    }

    private static String required(Map<String, String> opts, String name) {
        String value = opts.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    private static Path extractAsyncProfiler(Path jar) throws IOException {
        Path lib = Files.createTempDirectory("heaptap-service-bench-").resolve("libasyncProfiler.so");
        try (ZipFile zip = new ZipFile(jar.toFile()); InputStream in = zip.getInputStream(zip.getEntry("linux-x64/libasyncProfiler.so"))) {
            Files.copy(in, lib);
        }
        lib.toFile().deleteOnExit();
        return lib;
    }
}
