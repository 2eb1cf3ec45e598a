package io.heaptap.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A target's threads as the kernel names them ({@code /proc/<pid>/task/<tid>/comm}), and counts by name prefix. */
public final class Threads {
    private Threads() {
    }

    public static String threadNames(long pid) throws IOException {
        StringBuilder names = new StringBuilder();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                names.append(Files.readString(t.resolve("comm")));
            }
        }
        return names.toString();
    }

    public static int threadCount(String names, String prefix) {
        return (int) names.lines().filter(l -> l.startsWith(prefix)).count();
    }
}
