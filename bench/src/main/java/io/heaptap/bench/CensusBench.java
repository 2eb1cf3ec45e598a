package io.heaptap.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
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
 * heaptap's class census against the JDK's own (issue #36: "a census pause no longer than the JDK's own
 * GC.class_histogram on the same heap, measured side by side"): one G1 {@link CensusTarget} JVM per live
 * set, idle once built, and in each repetition, in a rotating order, {@code heaptap census PID}, {@code jcmd
 * PID GC.class_histogram} (a full collection and the census in one pause) and {@code jcmd PID
 * GC.class_histogram -all} (the census alone, no collection). The application's pause is the target's own
 * account: the sum of every safepoint's total (reaching it, and at it) its {@code -Xlog:safepoint} wrote
 * while the command ran; nothing else runs in the target then. The client's wall time is shown beside it,
 * for scale only (JVM start-up, attach, JMX).
 */
final class CensusBench {
    /** Live sets (GiB) and each one's heap (-Xms = -Xmx): room for G1's young generation while the set is built. */
    private static final List<Map.Entry<Integer, String>> HEAPS = List.of(Map.entry(1, "2g"), Map.entry(4, "6g"), Map.entry(8, "11g"));
    private static final Pattern SAFEPOINT = Pattern.compile("Safepoint \"(\\w+)\".*Total: (\\d+) ns");

    private final Path classes;
    private final Commands commands;
    private final boolean quick;

    CensusBench(Path classes, Commands commands, boolean quick) {
        this.classes = classes;
        this.commands = commands;
        this.quick = quick;
    }

    /** What one command cost the target: the safepoints its log shows while it ran, and the client's wall time. */
    record Pause(double totalMillis, double longestMillis, int safepoints, String operations, double wallMillis) {
    }

    private enum Arm {
        HEAPTAP("`heaptap census PID`"),
        HISTOGRAM("`jcmd PID GC.class_histogram`"),
        HISTOGRAM_ALL("`jcmd PID GC.class_histogram -all` (census alone, no collection)");

        final String label;

        Arm(String label) {
            this.label = label;
        }
    }

    /** One live set's figures. */
    private record Heap(String live, String heap, long usedAfterGc, long objects, Map<Arm, List<Pause>> pauses) {
    }

    List<String> run(BenchTarget.Jdk jdk, int reps) throws Exception {
        List<Heap> heaps = new ArrayList<>();
        if (quick) {
            heaps.add(once(jdk, 64L << 20, "256m", "64 MiB", reps));
        } else {
            for (Map.Entry<Integer, String> h : HEAPS) {
                heaps.add(once(jdk, (long) h.getKey() << 30, h.getValue(), h.getKey() + " GiB", reps));
            }
        }
        return report(jdk, reps, heaps);
    }

    private Heap once(BenchTarget.Jdk jdk, long liveBytes, String heap, String liveLabel, int reps) throws Exception {
        Path log = Files.createTempFile("heaptap-census-safepoints-", ".log");
        try (BenchTarget t = new BenchTarget(jdk, classes, CensusTarget.class, List.of("-Xms" + heap, "-Xmx" + heap,
                "-XX:-AlwaysPreTouch", "-XX:+UseG1GC", "-Dbench.liveBytes=" + liveBytes,
                "-Xlog:safepoint:file=" + log + "::filecount=0"))) {
            String pid = Long.toString(t.pid());
            String[] built = t.command("build", "built").split(" ");
            String jcmd = jdk.bin("jcmd").toString();
            // Untimed: heaptap's agent loads on its first census, and each command's code is warm afterwards.
            commands.heaptapOutput("census", pid);
            commands.output(List.of(jcmd, pid, "GC.class_histogram"));
            Map<Arm, List<Pause>> pauses = new LinkedHashMap<>();
            Arm[] arms = Arm.values();
            for (int rep = 0; rep < reps; rep++) {
                for (int i = 0; i < arms.length; i++) {
                    Arm arm = arms[(rep + i) % arms.length];  // a rotating order: no arm always follows the same one
                    List<String> cmd = switch (arm) {
                        case HEAPTAP -> null;
                        case HISTOGRAM -> List.of(jcmd, pid, "GC.class_histogram");
                        case HISTOGRAM_ALL -> List.of(jcmd, pid, "GC.class_histogram", "-all");
                    };
                    pauses.computeIfAbsent(arm, k -> new ArrayList<>()).add(measure(log, () -> {
                        if (cmd == null) {
                            commands.heaptapOutput("census", pid);
                        } else {
                            commands.output(cmd);
                        }
                    }));
                }
            }
            return new Heap(liveLabel, heap, Long.parseLong(built[1]), Long.parseLong(built[2]), pauses);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private interface Action {
        void run() throws IOException, InterruptedException;
    }

    private static Pause measure(Path log, Action action) throws IOException, InterruptedException {
        long from = Files.size(log);
        long t0 = System.nanoTime();
        action.run();
        double wall = (System.nanoTime() - t0) / 1e6;
        // The safepoint's line is written (and flushed) as it ends, before the command's reply reaches the client.
        return parse(tail(log, from), wall);
    }

    static Pause parse(String lines, double wallMillis) {
        Matcher m = SAFEPOINT.matcher(lines);
        double total = 0;
        double longest = 0;
        int count = 0;
        Map<String, Integer> names = new LinkedHashMap<>();
        while (m.find()) {
            double millis = Long.parseLong(m.group(2)) / 1e6;
            total += millis;
            longest = Math.max(longest, millis);
            count++;
            names.merge(m.group(1), 1, Integer::sum);
        }
        List<String> ops = new ArrayList<>();
        names.forEach((name, n) -> ops.add(n == 1 ? name : name + " ×" + n));
        return new Pause(total, longest, count, String.join(", ", ops), wallMillis);
    }

    private static String tail(Path file, long from) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            byte[] bytes = new byte[(int) Math.max(0, f.length() - from)];
            f.seek(from);
            f.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static List<String> report(BenchTarget.Jdk jdk, int reps, List<Heap> heaps) {
        List<String> md = new ArrayList<>();
        md.add("## Class census pause: heaptap against the JDK's GC.class_histogram (" + jdk.name() + ", G1), issue #36");
        md.add("");
        md.add("One idle target JVM per live set (mixed small objects, 16 B to ~200 B, of 19 kinds: records, plain classes,"
                + " arrays, strings, boxes, lists, maps), built then collected; " + reps + " repetitions of each command, in a"
                + " rotating order, after one untimed round. Pause: the target's own `-Xlog:safepoint` totals (time to reach the"
                + " safepoint and at it) summed over every safepoint while the command ran: mean with its 95% interval (Student's t)."
                + " Ratio: heaptap's pause over `GC.class_histogram`'s in the same repetition, mean (95% interval).");
        md.add("");
        md.add("| live set (heap after GC, objects) | -Xmx | command | application pause per census, ms | longest single pause, ms"
                + " | safepoints (operations) | client wall time, median (min–max) | heaptap ÷ GC.class_histogram |");
        md.add("|---|---|---|---|---|---|---|---|");
        for (Heap h : heaps) {
            List<Pause> heaptap = h.pauses().get(Arm.HEAPTAP);
            List<Pause> jdkOwn = h.pauses().get(Arm.HISTOGRAM);
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < heaptap.size(); i++) {
                ratios.add(heaptap.get(i).totalMillis() / jdkOwn.get(i).totalMillis());
            }
            for (Map.Entry<Arm, List<Pause>> arm : h.pauses().entrySet()) {
                List<Pause> ps = arm.getValue();
                md.add(String.format(Locale.ROOT, "| %s (%.2f GiB, %,d) | %s | %s | %s | %s | %s (%s) | %s | %s |", h.live(),
                        h.usedAfterGc() / (double) (1L << 30), h.objects(), h.heap(), arm.getKey().label,
                        millis(new Stats(ps.stream().map(Pause::totalMillis).toList())),
                        millis(new Stats(ps.stream().map(Pause::longestMillis).toList())),
                        new Stats(ps.stream().map(p -> (double) p.safepoints()).toList()).plain(), ps.get(ps.size() - 1).operations(),
                        new Stats(ps.stream().map(Pause::wallMillis).toList()).millis(),
                        arm.getKey() == Arm.HEAPTAP ? new Stats(ratios).meanInterval() : ""));
            }
        }
        md.add("");
        return md;
    }

    /** "812 (790–834)": the mean and its 95% interval, in whole milliseconds. */
    private static String millis(Stats s) {
        if (s.values().size() < 2) {
            return String.format(Locale.ROOT, "%.0f (one value)", s.mean());
        }
        return String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", s.mean(), s.mean() - s.halfWidth95(), s.mean() + s.halfWidth95());
    }
}
