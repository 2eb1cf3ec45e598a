package io.heaptap.jmx;

/**
 * heaptap's control surface in JConsole, VisualVM, Jolokia and the CLI, registered as
 * {@value MBeanRegistration#OBJECT_NAME}. Only open types, so every generic JMX client renders it.
 */
public interface HeaptapMXBean {

    /** idle, recording or stopped. */
    String getState();

    /** Who started the current or last capture; empty when idle. */
    String getStartedBy();

    /** Milliseconds left in the time box; 0 unless recording. */
    long getTimeLeftMillis();

    /** Samples recorded by the current or last capture (a count, not an estimate). */
    long getSamples();

    /** Estimated bytes of native memory held by the agent's tables. */
    long getNativeMemoryBytes();

    /** Why the native agent is unavailable; empty when it works. */
    String getNativeAgentError();

    /** heaptap's version. */
    String getAgentVersion();

    /** JNI weak references held for live tracking (0 after reset). */
    long getWeakRefs();

    /** Starts a capture with live tracking and the default depth and budgets. */
    void start(String duration, String interval);

    /** Starts a capture with every option; client says who starts it. */
    void start(String duration, String interval, int stackDepth, int maxStacks, boolean live, int liveBudget, String client);

    /** Ends the capture now; harmless when nothing is recording. */
    void stop();

    /** Forgets everything recorded; harmless when idle. */
    void reset();

    /** The dump of the current or last capture in a format (text, pprof, collapsed, json, html), as bytes. */
    byte[] dumpBytes(String format);

    /**
     * The dump with the live view filtered to objects at least {@code minAge} old (e.g. 10s, empty
     * for any) that survived at least {@code minGcs} collections; {@code gc} forces a full
     * collection first, which pauses the application.
     */
    byte[] dumpBytes(String format, String minAge, long minGcs, boolean gc);
}
