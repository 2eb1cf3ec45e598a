package io.heaptap.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's CPU time (user and system, all its threads), from /proc/PID/stat. */
final class ProcessCpu {
    /** Linux's USER_HZ, the unit of /proc's times: 100 on every architecture the bench runs on (x86-64, arm64). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcessCpu() {
    }

    static long nanos(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // the command name (field 2) may hold spaces and parentheses: count fields after its last ')'
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields 14 and 15 of the line (utime, stime) are the 12th and 13th after the name
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
    }
}
