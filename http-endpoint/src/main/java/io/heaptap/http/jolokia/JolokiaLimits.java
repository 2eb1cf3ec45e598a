package io.heaptap.http.jolokia;

import org.jolokia.server.core.config.ConfigKey;

import java.util.Map;

/**
 * What one Jolokia request may cost, derived from heaptap's heap budget in this JVM, and reserved from
 * it before the request runs ({@link #reservation}): the answer's bytes (built, then copied once into
 * the response), and the JSON tree Jolokia builds for one request at a time, bounded by the number of
 * values it may hold.
 *
 * @param answerBytes the largest answer, a whole bulk's included, in UTF-8 bytes
 * @param treeBytes   room for the JSON tree of the one request being answered
 * @param maxObjects  values one request's answer may hold: what keeps its tree within {@code treeBytes}
 */
record JolokiaLimits(int answerBytes, int treeBytes, int maxObjects) {
    static final int MAX_DEPTH = 10;
    static final int MAX_COLLECTION_SIZE = 1000;
    static final int MAX_OBJECTS = 20_000;
    static final int MAX_ANSWER_BYTES = 4 << 20;
    /** A generous size of one value in Jolokia's JSON tree: a map entry, its key and a boxed value or string. */
    static final int BYTES_PER_VALUE = 256;

    static JolokiaLimits forBudget(long budgetBytes) {
        int answer = (int) Math.max(64 << 10, Math.min(MAX_ANSWER_BYTES, budgetBytes / 8));
        int tree = (int) Math.max(256 << 10, Math.min(8 << 20, budgetBytes / 4));
        return new JolokiaLimits(answer, tree, Math.min(MAX_OBJECTS, tree / BYTES_PER_VALUE));
    }

    /** What a request reserves from heaptap's heap budget: its answer twice (built, then copied out) and one tree. */
    long reservation() {
        return 2L * answerBytes + treeBytes;
    }

    /** The global configuration of these limits; Jolokia uses them as hard limits. */
    Map<ConfigKey, Integer> config() {
        return Map.of(ConfigKey.MAX_DEPTH, MAX_DEPTH, ConfigKey.MAX_COLLECTION_SIZE, MAX_COLLECTION_SIZE,
                ConfigKey.MAX_OBJECTS, maxObjects);
    }
}
