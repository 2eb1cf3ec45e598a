package io.heaptap.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;

/**
 * Whether live estimates stay calibrated under the live-tracking bound (issue #33, goal 2): on each
 * collector and heap, fresh {@link CoverageTarget} JVMs (two threads allocating garbage flat out); heaptap
 * starts at its defaults (the default byte bound, strictest on generational ZGC and Shenandoah); the
 * target then builds its four retained sets (40% of the heap) and holds them for a window while the
 * garbage keeps coming; {@code dump --gc --format json} proves every retained object live. A site-run is
 * covered when the site's true bytes lie in the stated 95% interval of its proven live bytes.
 */
final class CoverageBench {
    private static final Pattern SITE = Pattern.compile("CoverageTarget\\.(keep\\w+)");
    private static final List<String> HEAPS = List.of("256m", "1g");

    private final Path classes;
    private final Commands commands;
    private final boolean quick;

    CoverageBench(Path classes, Commands commands, boolean quick) {
        this.classes = classes;
        this.commands = commands;
        this.quick = quick;
    }

    /** One capture: its sites, and the machine's load when it ended. */
    private record Run(List<CoverageTally.SiteRun> sites, double load) {
    }

    /** The section on {@code jdk} (generational ZGC and Shenandoah need 23 or later): {@code runs} JVMs per collector and heap. */
    List<String> run(BenchTarget.Jdk jdk, int runs) throws Exception {
        long hold = quick ? BenchSuite.SMOKE_MILLIS : 3_000;
        List<String> heaps = quick ? List.of("256m") : HEAPS;
        Map<String, Map<String, List<Run>>> results = new LinkedHashMap<>();
        for (String heap : heaps) {
            for (Map.Entry<String, List<String>> collector : FootprintBench.COLLECTORS.entrySet()) {
                if (jdk.feature() < 23 && !collector.getKey().equals("G1") && !collector.getKey().equals("Parallel")) {
                    continue;  // generational ZGC and Shenandoah: JDK 23 and later
                }
                for (int i = 0; i < runs; i++) {
                    results.computeIfAbsent(collector.getKey(), k -> new LinkedHashMap<>()).computeIfAbsent(heap, k -> new ArrayList<>())
                            .add(once(jdk, heap, collector.getValue(), hold));
                }
            }
        }
        return report(jdk, runs, hold, results);
    }

    private Run once(BenchTarget.Jdk jdk, String heap, List<String> collector, long hold) throws Exception {
        List<String> jvmArgs = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap));
        jvmArgs.addAll(collector);
        Path out = Files.createTempFile("heaptap-coverage-", ".json");
        try (BenchTarget t = new BenchTarget(jdk, classes, CoverageTarget.class, jvmArgs)) {
            String pid = Long.toString(t.pid());
            commands.heaptap("start", pid, "--duration", "1h");  // returns once sampling is on
            String built = t.command("build", "built");
            t.window(hold);  // the sets held while the garbage threads keep the sampler and the bound busy
            commands.heaptap("dump", pid, "--gc", "--format", "json", "--out", out.toString());
            CoverageReading reading = CoverageReading.parse(Files.readString(out), SITE);
            return new Run(siteRuns(built, reading), MachineLoad.now());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Pairs the target's "built SITE=OBJECTS:BYTES ..." with the profile's estimates. */
    static List<CoverageTally.SiteRun> siteRuns(String built, CoverageReading reading) {
        List<CoverageTally.SiteRun> sites = new ArrayList<>();
        for (String word : built.substring(built.indexOf(' ') + 1).split(" ")) {
            String name = word.substring(0, word.indexOf('='));
            long bytes = Long.parseLong(word.substring(word.indexOf(':') + 1));
            sites.add(new CoverageTally.SiteRun(name, bytes, reading.site(name), reading.allocatedAt(name), reading.hold()));
        }
        return sites;
    }

    private static List<String> report(BenchTarget.Jdk jdk, int runs, long hold, Map<String, Map<String, List<Run>>> results) {
        List<String> md = new ArrayList<>();
        md.add("## Live-estimate coverage under the live-tracking bound (" + jdk.name() + "), issue #33 goal 2");
        md.add("");
        md.add("One fresh JVM per run (" + runs + " per collector and heap): 2 threads allocate garbage flat out; `heaptap start"
                + " --duration 1h` at the defaults; the target then builds four retained sets, 10% of the heap each (64 B, 16 KiB,"
                + " 256 KiB and 1 MiB arrays, interleaved), holds them " + hold / 1000.0 + " s, and `dump --gc --format json` reads each"
                + " site's proven live bytes and 95% interval. Covered: the true bytes (object sizes, headers included) inside the"
                + " interval. Goal: at least 19 of 20 site-runs covered on each collector.");
        md.add("");
        md.add("| collector | heap | site-runs covered | goal (≥ 19/20) | covered in runs without a HEAP CRITICAL release | bound"
                + " | runs thinned by the bound | byte thinnings per run (objects let go) | HEAP CRITICAL releases per run (objects"
                + " let go) | count keep probability (min) | load |");
        md.add("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Map.Entry<String, Map<String, List<Run>>> collector : results.entrySet()) {
            List<CoverageTally.SiteRun> all = new ArrayList<>();
            for (Map.Entry<String, List<Run>> heap : collector.getValue().entrySet()) {
                List<Run> rs = heap.getValue();
                List<CoverageTally.SiteRun> sites = rs.stream().flatMap(r -> r.sites().stream()).toList();
                all.addAll(sites);
                List<CoverageReading.Hold> holds = rs.stream().map(r -> r.sites().get(0).hold()).toList();
                CoverageReading.Hold first = holds.get(0);
                List<CoverageTally.SiteRun> unreleased = sites.stream().filter(r -> r.hold().releases() == 0).toList();
                md.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.1f%% of the heap%s | %d of %d | %s | %s | %.3g | %s |",
                        collector.getKey(), heap.getKey(), CoverageTally.fraction(sites), CoverageTally.verdict(sites),
                        unreleased.isEmpty() ? "no such run" : CoverageTally.fraction(unreleased),
                        first.share() * 100, first.strict() ? ", strict" : "", holds.stream().filter(CoverageReading.Hold::thinned).count(),
                        holds.size(), perRun(holds, CoverageReading.Hold::byteThinnings, CoverageReading.Hold::byteThinnedEntries),
                        perRun(holds, CoverageReading.Hold::releases, CoverageReading.Hold::releasedEntries),
                        holds.stream().mapToDouble(CoverageReading.Hold::keepProbability).min().orElse(1),
                        new Stats(rs.stream().map(Run::load).toList()).plain()));
            }
            if (collector.getValue().size() > 1) {
                md.add(String.format(Locale.ROOT, "| %s | all | %s | %s | | | | | | | |", collector.getKey(), CoverageTally.fraction(all),
                        CoverageTally.verdict(all)));
            }
        }
        md.add("");
        md.add("Per site: proven live estimate ÷ true bytes, median (min–max) over runs; the 95% interval's width ÷ true bytes, median."
                + " The sites keep everything they allocate, so the allocated-bytes estimate has the same truth: its columns tell the"
                + " sampler's part from live tracking's.");
        md.add("");
        md.add("| collector | heap | site | true bytes (run 1) | covered | estimate ÷ truth | interval width ÷ truth | allocated: covered"
                + " | allocated ÷ truth |");
        md.add("|---|---|---|---|---|---|---|---|---|");
        List<String> misses = new ArrayList<>();
        for (Map.Entry<String, Map<String, List<Run>>> collector : results.entrySet()) {
            for (Map.Entry<String, List<Run>> heap : collector.getValue().entrySet()) {
                List<Run> rs = heap.getValue();
                for (int s = 0; s < rs.get(0).sites().size(); s++) {
                    int index = s;
                    List<CoverageTally.SiteRun> site = rs.stream().map(r -> r.sites().get(index)).toList();
                    md.add(String.format(Locale.ROOT, "| %s | %s | `%s` | %s | %d/%d | %s | %.3f | %d/%d | %s |", collector.getKey(),
                            heap.getKey(), site.get(0).site(), bytes(site.get(0).truth()), CoverageTally.covered(site), site.size(),
                            new Stats(site.stream().map(CoverageTally.SiteRun::ratio).toList()).ratio(),
                            new Stats(site.stream().map(CoverageTally.SiteRun::relativeWidth).toList()).median(),
                            site.stream().filter(CoverageTally.SiteRun::allocatedCovered).count(), site.size(),
                            new Stats(site.stream().map(CoverageTally.SiteRun::allocatedRatio).toList()).ratio()));
                    for (int run = 0; run < site.size(); run++) {
                        if (!site.get(run).covered()) {
                            CoverageTally.SiteRun miss = site.get(run);
                            misses.add(String.format(Locale.ROOT, "- %s, %s, run %d, `%s`: estimate [interval] ÷ truth %s%s%s",
                                    collector.getKey(), heap.getKey(), run + 1, miss.site(), miss.describe(),
                                    miss.estimate().stacks() == 0 ? " (no proven live figure)" : "",
                                    miss.hold().releases() > 0 ? "; " + miss.hold().releases() + " HEAP CRITICAL releases in the run" : ""));
                        }
                    }
                }
            }
        }
        md.add("");
        if (!misses.isEmpty()) {
            md.add("Site-runs not covered:");
            md.add("");
            md.addAll(misses);
            md.add("");
        }
        return md;
    }

    /** "3 (1–5); 120 (40–300)": a count per run and the objects it let go, median (min–max). */
    private static String perRun(List<CoverageReading.Hold> holds, ToLongFunction<CoverageReading.Hold> times,
            ToLongFunction<CoverageReading.Hold> objects) {
        Stats t = new Stats(holds.stream().map(h -> (double) times.applyAsLong(h)).toList());
        Stats o = new Stats(holds.stream().map(h -> (double) objects.applyAsLong(h)).toList());
        return String.format(Locale.ROOT, "%.0f (%.0f–%.0f); %,.0f (%,.0f–%,.0f)", t.median(), t.min(), t.max(), o.median(), o.min(), o.max());
    }

    private static String bytes(double b) {
        return b >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20))
                : b >= 1 << 10 ? String.format(Locale.ROOT, "%.0f KiB", b / (1 << 10)) : String.format(Locale.ROOT, "%.0f B", b);
    }
}
