package io.heaptap.jmx;

/**
 * heaptap's CLI transport, registered as {@value MBeanRegistration#RAW_DUMPS_NAME} apart from the user's
 * operations: the capture undecoded, read in chunks, so the CLI decodes and encodes a dump of any size in
 * its own JVM. A raw dump holds one of the agent's few native snapshot slots until closed (or a minute
 * without reads), so nothing but the CLI should open one.
 */
public interface RawDumpsMXBean {
    /**
     * Opens the current or last capture undecoded; with gc, after a full collection (which pauses the application),
     * and with census, a class census right after that collection (a second pause, for a format that shows one).
     */
    String openRawDump(boolean gc, boolean census);

    /** Up to maxBytes (at most 256 KiB) of an open raw dump from offset; empty at its end. */
    byte[] readRawDump(String id, long offset, int maxBytes);

    /**
     * The class census taken right after an open raw dump's forced collection (JSON: at most 20 classes and the rest,
     * or why none was taken), or empty when it forced none. Read it before closing the dump.
     */
    String rawDumpCensus(String id);

    /** Frees an open raw dump; harmless if it is gone already. */
    void closeRawDump(String id);
}
