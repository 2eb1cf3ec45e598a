package io.heaptap.jmx;

import java.util.List;

/**
 * The whole status in one read: the MXBean's {@code Status} attribute, one open-type
 * CompositeData item per status attribute of {@link HeaptapMXBean}, under the attribute's name
 * (State → {@code state}), with the same value and meaning. It is read from one session snapshot and
 * one profile, so its figures agree with each other, and a client (the CLI's {@code status}) gets it
 * in one round trip instead of one per attribute. An interface of getters, so a JMX proxy on the
 * client rebuilds it from the CompositeData without heaptap's server-side classes.
 */
public interface StatusView {
    String getState();

    String getStartedBy();

    String getStartTime();

    long getTimeLeftMillis();

    long getSamplingIntervalBytes();

    String getSampling();

    String getSamplingCost();

    String getContinuous();

    int getStackDepth();

    boolean isLiveTracking();

    int getLiveBudget();

    long getSamples();

    long getSamplesDropped();

    long getTrackedObjects();

    double getKeepProbability();

    long getEstimatedAllocatedBytes();

    long getEstimatedLiveBytes();

    long getEstimatedLiveBytesLow();

    long getEstimatedLiveBytesHigh();

    long getUnexaminedLiveBytes();

    long getMarkings();

    String getLastMarking();

    List<String> getLiveReport();

    String getGcCollector();

    long getGcCollections();

    long getGcPauseMillis();

    double getGcPauseShare();

    double getGcCpuShare();

    long getAllocationRateBytesPerSecond();

    List<String> getGcReport();

    long getHeapBudgetBytes();

    long getNativeMemoryBytes();

    long getWeakRefs();

    String getNativeAgentError();

    String getAgentVersion();

    String getDumpDirectory();

    String getHttpUrl();

    String getHttpTokenFile();

    String getLeakWatchState();

    int getLeakWatchSnapshots();

    /** The last leak watch's projected time to OOM in one line, or why there is none; empty without a census (--gc). */
    String getTimeToOom();

    /**
     * Why the figures that need the profile (samples dropped, tracked objects, estimates, markings,
     * the live report) are 0 or empty although a capture exists: summarising it would take more of
     * the target's heap than heaptap's budget. Empty when they are real. Only in the composite: the
     * single attributes throw an IllegalStateException with this message instead.
     */
    String getProfileError();
}
