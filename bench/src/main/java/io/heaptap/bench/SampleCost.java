package io.heaptap.bench;

import io.heaptap.nativeagent.JvmSamplingInterval;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.SamplerSettings;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The CPU cost of one JVMTI sample the agent drops (thinned, no stack walk) against one it keeps
 * (stack walk, method resolution, store; live tracking off and on), in this JVM. On JDK 11-24 the
 * JVM samples at 8 KiB in every sampling mode; only the user's interval changes what is kept:
 * 1 GiB keeps almost none (1 in 131,072), 8 KiB keeps all. One thread allocates a fixed number of
 * bytes per round in each mode, rounds alternate, and its thread CPU time (not wall time, which a
 * shared machine's load distorts more) over the off rounds' is the cost, divided by the expected
 * JVMTI events (bytes / JVM interval). Run on JDK 17:
 * {@code java -cp bench/target/classes:native-agent/target/classes:profile/target/classes io.heaptap.bench.SampleCost [rounds] [MiB per round]}
 */
public final class SampleCost {
    static volatile Object sink;

    private SampleCost() {
    }

    record Mode(String name, long interval, int liveBudget) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        long bytesPerRound = (args.length > 1 ? Long.parseLong(args[1]) : 1024) << 20;
        int feature = Runtime.version().feature();
        long jvmInterval = JvmSamplingInterval.forRequested(feature, 1L << 30);
        if (jvmInterval >= 1L << 30) {
            System.out.println("JDK " + feature + " does not thin (the JVM samples at the user's interval): run this on JDK 11-24");
            return;
        }
        NativeAgent agent = NativeAgent.get();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        List<Mode> modes = List.of(new Mode("off", 0, 0), new Mode("dropped (1 GiB asked)", 1L << 30, 0),
                new Mode("kept, no live (8 KiB asked)", jvmInterval, 0), new Mode("kept, live (8 KiB asked)", jvmInterval, 1 << 16));
        allocate(bytesPerRound);  // JIT warm-up
        List<List<Double>> nanosPerByte = new ArrayList<>();
        List<List<Double>> keptFraction = new ArrayList<>();
        for (int m = 0; m < modes.size(); m++) {
            nanosPerByte.add(new ArrayList<>());
            keptFraction.add(new ArrayList<>());
        }
        for (int r = 0; r < rounds; r++) {
            for (int m = 0; m < modes.size(); m++) {
                Mode mode = modes.get(m);
                if (mode.interval() > 0) {
                    agent.clear();
                    agent.start(SamplerSettings.withoutLargeStratum(mode.interval(), Duration.ofMinutes(10), 64, 1 << 16, mode.liveBudget()));
                }
                long before = cpu.getCurrentThreadCpuTime();
                long allocated = allocate(bytesPerRound);
                long spent = cpu.getCurrentThreadCpuTime() - before;
                if (mode.interval() > 0) {
                    agent.stop();
                    keptFraction.get(m).add(agent.sampleCount() / ((double) allocated / jvmInterval));
                }
                nanosPerByte.get(m).add((double) spent / allocated);
            }
        }
        double off = new Stats(nanosPerByte.get(0)).median();
        System.out.printf(Locale.ROOT, "JDK %s, JVM interval %,d B, %d rounds of %,d MiB, one thread allocating byte[1000]%n",
                Runtime.version(), jvmInterval, rounds, bytesPerRound >> 20);
        System.out.printf(Locale.ROOT, "| mode | CPU ns per MiB allocated, median (min-max) | kept of JVMTI events | CPU ns per JVMTI event over off |%n");
        System.out.printf(Locale.ROOT, "|---|---|---|---|%n");
        for (int m = 0; m < modes.size(); m++) {
            Stats s = new Stats(nanosPerByte.get(m));
            String perEvent = m == 0 ? "" : String.format(Locale.ROOT, "%.0f", (s.median() - off) * jvmInterval);
            String kept = m == 0 ? "" : String.format(Locale.ROOT, "%.4f", new Stats(keptFraction.get(m)).median());
            System.out.printf(Locale.ROOT, "| %s | %,.0f (%,.0f-%,.0f) | %s | %s |%n", modes.get(m).name(), s.median() * (1 << 20),
                    s.min() * (1 << 20), s.max() * (1 << 20), kept, perEvent);
        }
        agent.clear();
    }

    /** Allocates at least {@code bytes} as byte[1000] (1,016 bytes each); returns how many bytes. */
    static long allocate(long bytes) {
        long objects = bytes / 1016 + 1;
        for (long i = 0; i < objects; i++) {
            sink = new byte[1000];
        }
        return objects * 1016;
    }
}
