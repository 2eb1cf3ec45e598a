package io.heaptap.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** CPU time of a target's threads, as Linux counts it in /proc (user and system, in clock ticks). */
public final class ThreadCpu {
    /** USER_HZ: the unit of /proc/.../stat's times on Linux. */
    public static final double TICKS_PER_SECOND = 100.0;

    private ThreadCpu() {
    }

    /** User plus system ticks of the threads of {@code pid} whose name (15 characters at most) starts with {@code prefix}. */
    public static long ticks(long pid, String prefix) {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    if (!Files.readString(task.resolve("comm")).startsWith(prefix)) {
                        continue;
                    }
                    String stat = Files.readString(task.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);  // fields 14 and 15: utime, stime
                } catch (NoSuchFileException gone) {
                    // a thread that ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sum;
    }
}
