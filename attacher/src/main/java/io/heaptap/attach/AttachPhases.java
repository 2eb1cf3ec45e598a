package io.heaptap.attach;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the wall time of reaching heaptap in a target goes, phase by phase, for
 * {@code heaptap start --verbose}. The first phase runs from this process's start (as the kernel
 * records it, to 10 ms) to the CLI's main method; every later phase from the end of the one before,
 * so the phases add up to the total by construction.
 */
public final class AttachPhases {
    /** Records nothing. */
    public static final AttachPhases NONE = new AttachPhases(false, 0);
    /** When the CLI's main method began. */
    private static final long MAIN_NANOS = System.nanoTime();
    /** Linux's clock ticks per second, the unit of a process's start time in /proc (sysconf(_SC_CLK_TCK), 100 everywhere). */
    private static final double CLOCK_TICKS = 100;

    public record Phase(String name, long nanos) {
    }

    private final boolean recording;
    private final List<Phase> phases = new ArrayList<>();
    private long last;

    private AttachPhases(boolean recording, long last) {
        this.recording = recording;
        this.last = last;
    }

    /** Records from the process's start: the JVM's own start-up is the first phase. */
    public static AttachPhases sinceProcessStart() {
        AttachPhases p = new AttachPhases(true, MAIN_NANOS);
        long sinceMain = System.nanoTime() - MAIN_NANOS;
        p.phases.add(new Phase("CLI JVM start (process start to main)", Math.max(0, processAgeNanos() - sinceMain)));
        return p;
    }

    /**
     * This process's age, from the seconds since boot now and at its start, both to 10 ms
     * (ProcessHandle's start instant adds the boot time in whole seconds, up to a second off).
     */
    private static long processAgeNanos() {
        try {
            double uptime = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).trim().split("\\s+")[0]);
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // Fields after the command name (in parentheses, which may hold spaces): state is field 3, starttime field 22.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            double started = Long.parseLong(fields[19]) / CLOCK_TICKS;
            return (long) ((uptime - started) * 1e9);
        } catch (IOException | RuntimeException e) {
            return 0;  // not Linux, or /proc unreadable: the phase shows 0
        }
    }

    /** Call as early as possible in main, so the monotonic origin is main's start. */
    public static void touch() {
        // the static initialiser has run
    }

    /** Ends the phase that ran since the previous mark. */
    public void mark(String name) {
        if (!recording) {
            return;
        }
        long now = System.nanoTime();
        phases.add(new Phase(name, now - last));
        last = now;
    }

    /**
     * Ends the phase that ran since the previous mark at {@code nanos}, a {@link System#nanoTime()}
     * read in another process (on Linux every process reads the same monotonic clock). Kept between
     * the previous mark and now, so the phases stay in order and add up whatever the other clock says.
     */
    public void markAt(String name, long nanos) {
        if (!recording) {
            return;
        }
        long at = Math.min(System.nanoTime(), Math.max(last, nanos));
        phases.add(new Phase(name, at - last));
        last = at;
    }

    public List<Phase> phases() {
        return List.copyOf(phases);
    }

    public void print(PrintStream out) {
        if (!recording) {
            return;
        }
        long total = 0;
        for (Phase p : phases) {
            total += p.nanos();
        }
        for (Phase p : phases) {
            out.printf(Locale.ROOT, "heaptap: phase %8.1f ms  %s%n", p.nanos() / 1e6, p.name());
        }
        out.printf(Locale.ROOT, "heaptap: total %8.1f ms  (the phases above)%n", total / 1e6);
    }
}
