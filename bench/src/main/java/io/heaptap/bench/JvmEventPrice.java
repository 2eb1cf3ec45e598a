package io.heaptap.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What one of the JVM's own heap-sampling events costs the allocating thread on JDK 11-24, where heaptap
 * keeps the JVM's interval small and thins in the agent: the events it thins away still cost the JVM's
 * slow path (the TLAB's end is clamped at every sample point), the JVMTI post and the callback's cheap
 * test. A target allocates flat out; windows with sampling off alternate with windows under
 * {@code heaptap start --interval 64m} (on JDK 11-24 the JVM then samples at 8 KiB and heaptap keeps
 * almost nothing), and the price of an event is the CPU a byte costs more when on, times the JVM's
 * interval (one event per interval's bytes: the mixes' objects are far smaller than it).
 *
 * <pre>
 * java -cp bench.jar io.heaptap.bench.JvmEventPrice JAVA HEAPTAP_SCRIPT MIX THREADS PAIRS WINDOW_MILLIS [START_ARGS...]
 * </pre>
 * MIX: {@code small} (16-80 B objects), {@code arrays} (small objects and 0.5-4 KiB arrays), {@code strings}
 * (string building), {@code kb} (2 KiB arrays: the highest GB/s). Prints one line per window pair and the
 * median price. With START_ARGS (for instance none but {@code --no-live}: the default sampling) heaptap starts
 * with them instead, and the lines' cost is what heaptap's whole sampling costs a byte allocated.
 */
public final class JvmEventPrice {
    static final long JVM_INTERVAL = 8 * 1024;
    static volatile Object sink;

    private JvmEventPrice() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && args[0].equals("target")) {
            target(args[1], Integer.parseInt(args[2]));
            return;
        }
        if (args.length < 6) {
            System.err.println("usage: JvmEventPrice JAVA HEAPTAP MIX THREADS PAIRS WINDOW_MILLIS");
            System.exit(2);
        }
        List<String> start = args.length > 6 ? List.of(args).subList(6, args.length) : List.of("--interval", "64m", "--no-live");
        drive(args[0], args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Long.parseLong(args[5]), start);
    }

    private static void drive(String java, String heaptap, String mix, int threads, int pairs, long millis, List<String> start)
            throws Exception {
        String jar = JvmEventPrice.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        Process target = new ProcessBuilder(java, "-Xmx1g", "-cp", jar, JvmEventPrice.class.getName(), "target", mix,
                Integer.toString(threads)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter in = new PrintWriter(target.getOutputStream(), true, StandardCharsets.UTF_8);
        String pid = Long.toString(target.pid());
        out.readLine();  // ready
        measure(in, out, 3000);  // warm-up: compiled code, a steady heap
        // One start and stop before the first pair: loading the agent and compiling heaptap's code is not sampling.
        List<String> first = new ArrayList<>(List.of(heaptap, "start", pid, "--duration", "10m"));
        first.addAll(start);
        run(first.toArray(String[]::new));
        measure(in, out, 3000);
        run(heaptap, "stop", pid);
        measure(in, out, 2000);
        List<Double> prices = new ArrayList<>();
        for (int p = 0; p < pairs; p++) {
            double[] off = measure(in, out, millis);
            List<String> command = new ArrayList<>(List.of(heaptap, "start", pid, "--duration", "10m"));
            command.addAll(start);
            run(command.toArray(String[]::new));
            double[] on = measure(in, out, millis);
            run(heaptap, "stop", pid);
            double price = (on[1] / on[0] - off[1] / off[0]) * JVM_INTERVAL;
            prices.add(price);
            System.out.printf(Locale.ROOT, "%s %d threads: off %.2f GB/s %.3f ns/KB; on %.2f GB/s %.3f ns/KB; cost %+.1f%% a byte;"
                    + " %.0f ns an 8 KiB event%n", mix, threads, off[0] / millis / 1e6, off[1] / off[0] * 1024, on[0] / millis / 1e6,
                    on[1] / on[0] * 1024, 100 * ((on[1] / on[0]) / (off[1] / off[0]) - 1), price);
        }
        in.println("exit");
        target.waitFor(10, TimeUnit.SECONDS);
        prices.sort(null);
        System.out.printf(Locale.ROOT, "%s %d threads: median %.0f ns an event (min %.0f, max %.0f; %d pairs)%n", mix, threads,
                prices.get(prices.size() / 2), prices.get(0), prices.get(prices.size() - 1), prices.size());
    }

    private static double[] measure(PrintWriter in, BufferedReader out, long millis) throws IOException {
        in.println("measure " + millis);
        String[] w = out.readLine().trim().split(" ");
        return new double[] {Double.parseDouble(w[1]), Double.parseDouble(w[3])};
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + ": " + text);
        }
    }

    /** Allocates the mix on each thread; "measure MILLIS" prints "bytes B cpu NANOS" over that window. */
    private static void target(String mix, int threads) throws Exception {
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> allocate(mix), "alloc-" + t);
            w.setDaemon(true);
            w.start();
            workers.add(w);
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long[] ids = workers.stream().mapToLong(Thread::getId).toArray();
        System.out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            if (w[0].equals("exit")) {
                System.exit(0);
            }
            long bytes0 = sum(mx.getThreadAllocatedBytes(ids));
            long cpu0 = os.getProcessCpuTime();
            Thread.sleep(Long.parseLong(w[1]));
            long bytes = sum(mx.getThreadAllocatedBytes(ids)) - bytes0;
            long cpu = os.getProcessCpuTime() - cpu0;
            System.out.println("bytes " + bytes + " cpu " + cpu);
        }
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }

    private static void allocate(String mix) {
        long i = 0;
        while (true) {
            switch (mix) {
                case "small" -> {
                    sink = new Object();
                    sink = new byte[48];
                    sink = new long[8];
                }
                case "arrays" -> {
                    sink = new Object[4];
                    sink = new byte[512 + (int) (i & 3) * 1024];
                }
                case "strings" -> sink = Long.toString(i).concat("-item").toUpperCase(Locale.ROOT);
                case "kb" -> sink = new byte[2048];
                default -> throw new IllegalArgumentException("mix: small, arrays, strings or kb");
            }
            i++;
        }
    }
}
