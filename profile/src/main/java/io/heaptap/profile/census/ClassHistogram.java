package io.heaptap.profile.census;

import io.heaptap.profile.TypeNames;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the text of the JVM's {@code GC.class_histogram} diagnostic command into a {@link ClassCensus}
 * of its top classes. The format is a header, a dashed line, one row per class
 * ({@code "   1:   799421   809125160  [B (java.base@17.0.15)"}), and a {@code Total} line; JDK 17 and
 * 25 write it alike, but nothing here relies on the header's wording or the module suffix. A line that
 * does not read as a row is skipped, never fatal: the census is the JVM's, its text is not a contract.
 * Hidden classes whose names differ only by an address ({@link TypeNames#stable}) count as one row.
 */
public final class ClassHistogram {
    /** Bytes of the target's heap a census takes per loaded class: its line of text, its name, a map entry while ranking. */
    public static final long BYTES_PER_CLASS = 400;
    /** Besides: array classes (not counted as loaded), the parser's fixed needs. */
    public static final long FIXED_BYTES = 256 << 10;

    private ClassHistogram() {
    }

    /** What reading a census of a JVM with {@code loadedClasses} loaded classes may take of its heap, text included. */
    public static long heapNeeded(long loadedClasses) {
        return FIXED_BYTES + Math.max(0, loadedClasses) * BYTES_PER_CLASS;
    }

    /** The census in {@code text}, its {@code top} largest classes named and the rest summed. */
    public static ClassCensus parse(String text, int top, long atMillis, long heapAfterGcBytes, long maxHeapBytes, long pauseMillis) {
        Map<String, long[]> byName = new HashMap<>();
        long totalInstances = 0;
        long totalBytes = 0;
        int at = 0;
        while (at < text.length()) {
            int end = text.indexOf('\n', at);
            if (end < 0) {
                end = text.length();
            }
            ClassCount row = row(text, at, end);
            if (row != null) {
                long[] sum = byName.computeIfAbsent(row.name(), k -> new long[2]);
                sum[0] += row.instances();
                sum[1] += row.bytes();
                totalInstances += row.instances();
                totalBytes += row.bytes();
            }
            at = end + 1;
        }
        List<ClassCount> all = new ArrayList<>(byName.size());
        byName.forEach((name, sum) -> all.add(new ClassCount(name, sum[0], sum[1])));
        all.sort(Comparator.comparingLong(ClassCount::bytes).reversed().thenComparing(ClassCount::name));
        List<ClassCount> named = all.subList(0, Math.min(Math.max(0, top), all.size()));
        long restInstances = 0;
        long restBytes = 0;
        for (ClassCount c : all.subList(named.size(), all.size())) {
            restInstances += c.instances();
            restBytes += c.bytes();
        }
        int restClasses = all.size() - named.size();
        return new ClassCensus(atMillis, heapAfterGcBytes, maxHeapBytes, pauseMillis, named,
                new ClassCount(restClasses + " other classes", restInstances, restBytes), restClasses, totalInstances, totalBytes);
    }

    /** A row {@code "<rank>: <instances> <bytes> <name> [(module)]"} between {@code from} and {@code to}, or null. */
    static ClassCount row(String text, int from, int to) {
        String line = text.substring(from, to).strip();
        int colon = line.indexOf(':');
        if (colon <= 0 || !digits(line, 0, colon)) {
            return null;  // header, dashes, the Total line, anything new
        }
        String[] parts = line.substring(colon + 1).strip().split("\\s+", 3);
        if (parts.length < 3 || !digits(parts[0], 0, parts[0].length()) || !digits(parts[1], 0, parts[1].length())) {
            return null;
        }
        String name = parts[2];
        // " (java.base@17.0.15)": the module, after the name (class names have no spaces).
        int space = name.indexOf(' ');
        if (space > 0) {
            name = name.substring(0, space);
        }
        try {
            return new ClassCount(TypeNames.fromSignature(name), Long.parseLong(parts[0]), Long.parseLong(parts[1]));
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }

    private static boolean digits(String s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
