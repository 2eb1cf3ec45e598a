package io.heaptap.profile.census;

/**
 * One row of a class census: a class's live instances and their bytes (both exact counts from the
 * JVM's own heap inspection, not estimates). {@code name} is the Java name ({@code byte[]}, not
 * {@code [B}), the same as allocation sites' types, so census rows and sampled sites can be matched.
 */
public record ClassCount(String name, long instances, long bytes) {
}
