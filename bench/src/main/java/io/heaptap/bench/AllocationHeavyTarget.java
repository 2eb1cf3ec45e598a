package io.heaptap.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.LongAdder;

/**
 * The allocation-heavy target: every thread allocates a mix of small, medium and large objects as
 * fast as it can, by default right below {@code Thread.run} (3 frames). With {@code -Dbench.depth=N}
 * it allocates N frames deeper, as a service does under its framework's frames: HotSpot's stack walk,
 * which every kept sample costs, takes about 150 ns a frame, so a shallow target shows a profiler at
 * its cheapest. "measure MILLIS" prints "rate OPS_PER_SECOND pausems GC_PAUSE_MILLIS cpunsperop
 * PROCESS_CPU_NANOS_PER_OPERATION" over that window; "exit" ends it.
 */
public final class AllocationHeavyTarget {
    static final LongAdder OPS = new LongAdder();
    static volatile Object sink;
    static final int DEPTH = Integer.getInteger("bench.depth", 0);

    private AllocationHeavyTarget() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(AllocationHeavyTarget::work, "alloc-" + t);
            worker.setDaemon(true);
            worker.start();
        }
        Protocol.serve(OPS);
    }

    static void work() {
        // Compiled first, as a service's hot frames are: frames entered while a method is still
        // interpreted stay interpreted frames, which HotSpot's stack walk reads differently.
        for (int i = 0; i < 20_000; i++) {
            descend(DEPTH, true);
        }
        descend(DEPTH, false);
    }

    /** Recurses {@code depth} frames, then allocates (unless only warming up); the frames stay on the stack. */
    static long descend(int depth, boolean warmUp) {
        if (depth > 0) {
            return descend(depth - 1, warmUp) + 1;
        }
        if (!warmUp) {
            allocate();
        }
        return 0;
    }

    static void allocate() {
        long i = 0;
        while (true) {
            sink = new byte[64];
            sink = new Object[16];
            sink = Long.toString(i).concat("-item");
            if ((i & 15) == 0) {
                sink = new byte[8 * 1024];
            }
            if ((i & 4095) == 0) {
                sink = new long[128 * 1024];
            }
            i++;
            OPS.increment();
        }
    }

    /**
     * GC pause time so far: the pause beans of ZGC and Shenandoah, and every bean of the
     * stop-the-world collectors (whose collection time is pause time); G1's concurrent bean is left out.
     */
    static long pauseMillis() {
        var beans = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans();
        boolean hasPauseBeans = beans.stream().anyMatch(b -> b.getName().contains("Pauses"));
        long total = 0;
        for (var b : beans) {
            boolean pause = hasPauseBeans ? b.getName().contains("Pauses") : !b.getName().contains("Concurrent");
            if (pause) {
                total += Math.max(0, b.getCollectionTime());
            }
        }
        return total;
    }

    /** The stdin protocol shared by bench targets. */
    /** The whole process's CPU time: the application's threads, the GC's, the JIT's and any agent's. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static final class Protocol {
        /** Held only while {@link #writeOldToYoungReferences} fills it. */
        private static Object[] oldArray;

        private Protocol() {
        }

        /**
         * Writes references to new objects into an array of the old generation, as a real application
         * does all the time. G1 (JDK 20 and later) starts its concurrent refinement only after a
         * collection found enough such writes (its pending-cards target). A target that never makes
         * them keeps refinement off until the first tool whose attach does (heaptap's start, a JMX agent
         * start, JConsole: a few hundred cards suffice), and that tool would be charged G1's refinement
         * thread from then on: 2-3% of a core on the allocation-heavy target, whose humongous arrays
         * keep the heap lock busy while that thread tries to take it (bench/RESULTS.md).
         */
        static void writeOldToYoungReferences() {
            oldArray = new Object[1 << 20];  // 4 MiB or more: humongous, so allocated old
            for (int i = 0; i < oldArray.length; i++) {
                oldArray[i] = new Object();
            }
            oldArray = null;
        }

        static void serve(LongAdder ops) throws Exception {
            serve(ops, java.util.Map.of());
        }

        /** Also runs a target's own commands: each prints its own reply. */
        static void serve(LongAdder ops, java.util.Map<String, Runnable> commands) throws Exception {
            writeOldToYoungReferences();
            System.out.println("ready " + ProcessHandle.current().pid());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                String[] words = line.trim().split(" ");
                if (commands.containsKey(words[0])) {
                    commands.get(words[0]).run();
                } else if (words[0].equals("exit")) {
                    System.exit(0);
                } else if (words[0].equals("measure")) {
                    long millis = Long.parseLong(words[1]);
                    long before = ops.sum();
                    long pausesBefore = pauseMillis();
                    long cpuBefore = processCpuNanos();
                    long t0 = System.nanoTime();
                    Thread.sleep(millis);  // the measuring window itself
                    long after = ops.sum();
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double cpuPerOp = (processCpuNanos() - cpuBefore) / (double) Math.max(1, after - before);
                    System.out.println("rate " + (after - before) / seconds + " pausems " + (pauseMillis() - pausesBefore)
                            + " cpunsperop " + cpuPerOp);
                }
            }
        }
    }
}
