package io.heaptap.profile;

/**
 * The Java heap's size as the JVM reports it (MemoryMXBean), for the report header.
 * A value the JVM does not define is -1.
 */
public record HeapSizing(long initialBytes, long usedBytes, long committedBytes, long maxBytes) {
    public static final HeapSizing UNKNOWN = new HeapSizing(-1, -1, -1, -1);
}
