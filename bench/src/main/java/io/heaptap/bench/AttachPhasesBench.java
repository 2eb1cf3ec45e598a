package io.heaptap.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where {@code heaptap start} spends its time on a first attach (a fresh target JVM each time), as
 * {@code start --verbose} reports it: on a nearly idle target and on one whose threads saturate
 * every core. The machine's load average beside each, since other work on it shows in every phase.
 */
final class AttachPhasesBench {
    private static final Pattern PHASE = Pattern.compile("^heaptap: phase +([0-9.]+) ms  (.+)$", Pattern.MULTILINE);
    private static final String TO_FIRST_SAMPLE = "attach to first sample (attach handshake ... first sample)";
    private static final String PLAIN_WALL = "**wall time of `heaptap start` without --verbose** (another fresh target)";

    private final Path classes;
    private final Commands commands;

    AttachPhasesBench(Path classes, Commands commands) {
        this.classes = classes;
        this.commands = commands;
    }

    List<String> run(BenchTarget.Jdk jdk, int reps) throws Exception {
        Map<String, Map<String, List<Double>>> byTarget = new LinkedHashMap<>();
        Map<String, List<Double>> load = new LinkedHashMap<>();
        for (Class<?> target : List.of(IdleTarget.class, AllocationHeavyTarget.class)) {
            String name = target == IdleTarget.class ? "idle" : "busy (2 threads allocating flat out)";
            Map<String, List<Double>> phases = byTarget.computeIfAbsent(name, k -> new LinkedHashMap<>());
            for (int i = 0; i < reps; i++) {
                for (boolean verbose : new boolean[] {true, false}) {
                    try (BenchTarget t = new BenchTarget(jdk, classes, target, List.of())) {
                        t.window(1000);  // warmed up, and past its start-up's own class loading
                        load.computeIfAbsent(name, k -> new ArrayList<>()).add(MachineLoad.now());
                        long t0 = System.nanoTime();
                        List<String> start = new ArrayList<>(List.of("start", Long.toString(t.pid()), "--duration", "5s"));
                        if (verbose) {
                            start.add("--verbose");
                        }
                        String out = commands.heaptapOutput(start.toArray(String[]::new));
                        double wall = (System.nanoTime() - t0) / 1e6;
                        if (verbose) {
                            record(phases, out, wall);
                        } else {
                            // What the goal names: start without --verbose, which does not wait for the first sample.
                            phases.computeIfAbsent(PLAIN_WALL, k -> new ArrayList<>()).add(wall);
                        }
                    }
                }
            }
        }
        List<String> report = new ArrayList<>();
        report.add("## Attach phases (" + jdk.name() + "): `heaptap start --verbose`, first attach to a fresh JVM");
        report.add("");
        report.add("Median (min–max) over " + reps + " fresh targets. Load average (1 min) at each start: "
                + String.join("; ", load.entrySet().stream().map(e -> e.getKey() + " " + new Stats(e.getValue()).plain()).toList()) + ".");
        report.add("");
        List<String> names = new ArrayList<>();
        byTarget.values().forEach(m -> m.keySet().forEach(n -> {
            if (!names.contains(n)) {
                names.add(n);
            }
        }));
        report.add("| phase | " + String.join(" | ", byTarget.keySet()) + " |");
        report.add("|---|" + "---|".repeat(byTarget.size()));
        for (String n : names) {
            StringBuilder row = new StringBuilder("| " + n + " |");
            for (Map<String, List<Double>> m : byTarget.values()) {
                List<Double> v = m.get(n);
                row.append(' ').append(v == null ? "—" : new Stats(v).millis()).append(" |");
            }
            report.add(row.toString());
        }
        report.add("");
        return report;
    }

    /** Each phase's milliseconds, the phases from the attach handshake to the first sample, and the command's wall time. */
    private static void record(Map<String, List<Double>> phases, String out, double wall) {
        Matcher m = PHASE.matcher(out);
        double toFirst = 0;
        boolean counting = false;
        boolean first = false;
        while (m.find()) {
            String name = m.group(2).strip().replaceAll(" \\(.*", "");
            double millis = Double.parseDouble(m.group(1));
            phases.computeIfAbsent(name, k -> new ArrayList<>()).add(millis);
            counting |= name.startsWith("attach handshake");
            if (counting && !first) {
                toFirst += millis;
                first = name.startsWith("first sample in the target");
            }
        }
        if (first) {
            phases.computeIfAbsent(TO_FIRST_SAMPLE, k -> new ArrayList<>()).add(toFirst);
        }
        phases.computeIfAbsent("**wall time of the command** (with --verbose)", k -> new ArrayList<>()).add(wall);
    }

}
