package io.heaptap.profile;

import java.util.List;

/**
 * CPU time of the JVM's GC threads next to the CPU time of the whole process over a capture.
 * When a figure cannot be known (no per-thread CPU on this platform, GC threads named in a way
 * heaptap does not recognise), {@code available} is false and {@code unavailableReason} says why.
 *
 * @param available         whether both figures are known
 * @param unavailableReason why not, or null
 * @param gcThreadNanos     CPU time of the GC threads during the capture
 * @param processNanos      CPU time of the whole process during the capture
 * @param gcThreads         how many GC threads ran
 * @param threadNames       the GC thread name patterns seen ("GC Thread#", "G1 Conc#", ...)
 * @param note              a caveat a reader should see (for example Serial's VM Thread), or null
 */
public record GcCpu(boolean available, String unavailableReason, long gcThreadNanos, long processNanos, int gcThreads,
                    List<String> threadNames, String note) {

    public GcCpu {
        threadNames = List.copyOf(threadNames);
    }

    public static GcCpu unavailable(String reason) {
        return new GcCpu(false, reason, 0, 0, 0, List.of(), null);
    }

    /** GC threads' share of the process's CPU time, 0..1; -1 when unavailable. */
    public double share() {
        if (!available) {
            return -1;
        }
        // The process figure comes in clock ticks, the threads' in nanoseconds: clamp the rounding.
        return processNanos <= 0 ? 0 : Math.min(1, (double) gcThreadNanos / processNanos);
    }
}
