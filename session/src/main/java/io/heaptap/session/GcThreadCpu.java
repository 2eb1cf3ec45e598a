package io.heaptap.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * CPU time of this process's GC threads, from Linux's per-thread figures: each thread's name in
 * {@code /proc/self/task/<tid>/comm} and its CPU time in {@code schedstat} (nanoseconds on the
 * CPU), or in {@code stat} (utime + stime in clock ticks) where schedstat is missing. Java cannot
 * ask for the clock-tick rate, but Linux fixes what /proc reports at USER_HZ = 100.
 *
 * <p>HotSpot names its GC threads itself ("GC Thread#0", "G1 Conc#0", "ZWorkerYoung#1",
 * "Shenandoah GC Threads" cut to 15 characters by the kernel); {@link #isGcThreadName} knows them.
 * Anything unreadable yields a reason, never an exception.
 */
final class GcThreadCpu {
    static final Path SELF_TASKS = Path.of("/proc/self/task");
    /** /proc's stat counts CPU time in USER_HZ ticks, 100 per second on every Linux ABI. */
    static final long NANOS_PER_TICK = 10_000_000L;
    /** Name prefixes of HotSpot's GC threads (JDK 17 to 25): workers, concurrent markers, refinement, drivers. */
    private static final String[] GC_THREAD_PREFIXES = {"GC Thread#", "G1 Conc#", "G1 Refine#", "G1 Main Marker",
            "G1 Service", "ZWorker", "ZDriver", "ZDirector", "ZUnmapper", "ZUncommitter", "ZStat", "Shenandoah"};

    /**
     * Per-thread CPU time of the threads whose name passes the filter, at one moment.
     *
     * @param cpuNanos          CPU time per thread id
     * @param names             name per thread id
     * @param unavailableReason why nothing could be read, or null
     */
    record Reading(Map<Long, Long> cpuNanos, Map<Long, String> names, String unavailableReason) {
        static Reading unavailable(String reason) {
            return new Reading(Map.of(), Map.of(), reason);
        }
    }

    /**
     * How long a thread's name is read again: a new thread carries its creator's name until it names
     * itself, which HotSpot does within microseconds of the thread's start.
     */
    static final long NAME_SETTLES_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Path tasks;
    private final LongSupplier nanoTime;
    /**
     * Names read before, by thread id, with when each was first read: one entry per live thread
     * (about 130 bytes). Reading every thread's name took 26 ms per read with 2,000 threads once
     * compiled; a known one is not read again. A thread id leaves the map when it leaves the folder
     * (its thread ended), so a reused id is read afresh unless Linux handed out every id in between.
     */
    private Map<Long, KnownName> known = new HashMap<>();

    /** @param settled whether this name was read at least {@link #NAME_SETTLES_NANOS} after the thread was first seen */
    private record KnownName(String name, long firstReadNanos, boolean settled) {
    }

    GcThreadCpu(Path tasks) {
        this(tasks, System::nanoTime);
    }

    GcThreadCpu(Path tasks, LongSupplier nanoTime) {
        this.tasks = tasks;
        this.nanoTime = nanoTime;
    }

    synchronized Reading read(Predicate<String> isGcThread) {
        if (!Files.isDirectory(tasks)) {
            return Reading.unavailable("no per-thread CPU figures on this platform (" + tasks + " is missing)");
        }
        Map<Long, Long> cpu = new TreeMap<>();
        Map<Long, String> names = new TreeMap<>();
        Map<Long, KnownName> listed = new HashMap<>();
        long now = nanoTime.getAsLong();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                long tid;
                try {
                    tid = Long.parseLong(thread.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                String name = nameOf(tid, thread, now, listed);
                if (name == null || !isGcThread.test(name)) {
                    continue;
                }
                OptionalLong nanos = cpuNanos(thread);
                if (nanos.isPresent()) {  // a thread that ended between the listing and the read has none
                    cpu.put(tid, nanos.getAsLong());
                    names.put(tid, name);
                }
            }
        } catch (IOException | RuntimeException e) {
            return Reading.unavailable("cannot read " + tasks + ": " + e.getMessage());
        }
        known = listed;
        return new Reading(cpu, names, null);
    }

    /**
     * The thread's name: read from comm until one read came at least {@link #NAME_SETTLES_NANOS} after
     * the thread was first seen, then the name that read found; null if unreadable.
     */
    private String nameOf(long tid, Path thread, long now, Map<Long, KnownName> listed) {
        KnownName before = known.get(tid);
        if (before != null && before.settled()) {
            listed.put(tid, before);
            return before.name();
        }
        String name = readComm(thread);
        if (name != null) {
            long first = before == null ? now : before.firstReadNanos();
            listed.put(tid, new KnownName(name, first, now - first >= NAME_SETTLES_NANOS));
        }
        return name;
    }

    /** The thread's name: comm without its newline. Names may hold spaces and parentheses. */
    static String readComm(Path thread) {
        try {
            String comm = Files.readString(thread.resolve("comm"), StandardCharsets.UTF_8);
            return comm.endsWith("\n") ? comm.substring(0, comm.length() - 1) : comm;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static OptionalLong cpuNanos(Path thread) {
        OptionalLong fromSchedstat = parseSchedstat(read(thread.resolve("schedstat")));
        return fromSchedstat.isPresent() ? fromSchedstat : parseStatCpuNanos(read(thread.resolve("stat")));
    }

    /**
     * The whole process's CPU time: utime + stime of {@code <proc>/stat}, which Linux sums over the
     * process's threads, exited ones included. The JDK's OperatingSystemMXBean reports the same there
     * ({@code times()}, in the same ticks), but creating that bean reads the cgroup hierarchy: 16-35 ms
     * of a busy target's first capture start.
     */
    static OptionalLong processCpuNanos(Path proc) {
        return parseStatCpuNanos(read(proc.resolve("stat")));
    }

    /** schedstat: "ns-on-cpu ns-waiting timeslices". */
    static OptionalLong parseSchedstat(String schedstat) {
        if (schedstat == null) {
            return OptionalLong.empty();
        }
        String[] fields = schedstat.trim().split("\\s+");
        return parseNonNegative(fields[0]);
    }

    /**
     * stat: "tid (comm) state ppid ... utime stime ...". The name may contain spaces and ")" itself,
     * so fields are counted after the last ")": state is field 3, utime 14 and stime 15.
     */
    static OptionalLong parseStatCpuNanos(String stat) {
        if (stat == null) {
            return OptionalLong.empty();
        }
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return OptionalLong.empty();
        }
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        if (fields.length < 13) {
            return OptionalLong.empty();
        }
        OptionalLong utime = parseNonNegative(fields[14 - 3]);
        OptionalLong stime = parseNonNegative(fields[15 - 3]);
        if (utime.isEmpty() || stime.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of((utime.getAsLong() + stime.getAsLong()) * NANOS_PER_TICK);
    }

    static boolean isGcThreadName(String name) {
        for (String prefix : GC_THREAD_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** "GC Thread#12" -> "GC Thread#": the name without its number, to list kinds of threads. */
    static String kind(String name) {
        int end = name.length();
        while (end > 0 && Character.isDigit(name.charAt(end - 1))) {
            end--;
        }
        return name.substring(0, end).strip();
    }

    private static OptionalLong parseNonNegative(String s) {
        try {
            long v = Long.parseLong(s);
            return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * A /proc file of numbers, or null. Read as Latin-1, which decodes any bytes: a stat file holds the
     * name too, and Linux cuts a name to 15 bytes, which can split a UTF-8 character.
     */
    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
