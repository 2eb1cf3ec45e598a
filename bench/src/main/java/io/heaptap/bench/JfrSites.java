package io.heaptap.bench;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a JFR recording of {@link AccuracyTarget} per site. Run with the JDK that wrote the
 * recording, whose parser surely reads its own file version. Prints "alloc SITE BYTES": the sum of
 * {@code jdk.ObjectAllocationSample} weights (bytes allocated since the thread's previous sample,
 * so summed as they are, never re-weighted), and "old SITE COUNT": {@code jdk.OldObjectSample}
 * events, a sample count with no weight.
 */
public final class JfrSites {
    private JfrSites() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, Long> allocated = new TreeMap<>();
        Map<String, Long> old = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
            String site = site(e);
            if (site == null) {
                continue;
            }
            switch (e.getEventType().getName()) {
                case "jdk.ObjectAllocationSample" -> allocated.merge(site, e.getLong("weight"), Long::sum);
                case "jdk.OldObjectSample" -> old.merge(site, 1L, Long::sum);
                default -> { }
            }
        }
        allocated.forEach((site, bytes) -> System.out.println("alloc " + site + " " + bytes));
        old.forEach((site, count) -> System.out.println("old " + site + " " + count));
    }

    /** The innermost AccuracyTarget site method on the event's stack, or null. */
    private static String site(RecordedEvent e) {
        if (e.getStackTrace() == null) {
            return null;
        }
        for (RecordedFrame f : e.getStackTrace().getFrames()) {
            String method = f.getMethod().getName();
            if (f.getMethod().getType().getName().equals(AccuracyTarget.class.getName())
                    && (method.startsWith("bytes") || method.startsWith("kept"))) {
                return method;
            }
        }
        return null;
    }
}
