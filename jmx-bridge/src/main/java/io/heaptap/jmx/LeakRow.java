package io.heaptap.jmx;

import javax.management.ConstructorParameters;

/**
 * A row of {@code leakRanking}: one allocation site's leak verdict and its evidence. A class with
 * {@link ConstructorParameters} rather than a record, like the other rows, so the MXBean proxy of
 * a Java 17 client can rebuild it (record mapping in MXBeans came later).
 */
public final class LeakRow {
    private final int rank;
    private final String verdict;
    private final double confidence;
    private final String type;
    private final String allocatedAt;
    private final double estimatedLiveBytes;
    private final double estimatedLiveBytesLow;
    private final double estimatedLiveBytesHigh;
    private final double unexaminedLiveBytes;
    private final long markings;
    private final double liveBytesPerMinute;
    private final double growth;
    private final long maxAgeMillis;
    private final long medianAgeMillis;
    private final long medianGcsSurvived;
    private final long tracked;
    private final int snapshots;
    private final String reason;

    @ConstructorParameters({"rank", "verdict", "confidence", "type", "allocatedAt", "estimatedLiveBytes",
            "estimatedLiveBytesLow", "estimatedLiveBytesHigh", "unexaminedLiveBytes", "markings", "liveBytesPerMinute",
            "growth", "maxAgeMillis", "medianAgeMillis", "medianGcsSurvived", "tracked", "snapshots", "reason"})
    public LeakRow(int rank, String verdict, double confidence, String type, String allocatedAt, double estimatedLiveBytes,
                   double estimatedLiveBytesLow, double estimatedLiveBytesHigh, double unexaminedLiveBytes, long markings,
                   double liveBytesPerMinute, double growth, long maxAgeMillis, long medianAgeMillis, long medianGcsSurvived,
                   long tracked, int snapshots, String reason) {
        this.rank = rank;
        this.verdict = verdict;
        this.confidence = confidence;
        this.type = type;
        this.allocatedAt = allocatedAt;
        this.estimatedLiveBytes = estimatedLiveBytes;
        this.estimatedLiveBytesLow = estimatedLiveBytesLow;
        this.estimatedLiveBytesHigh = estimatedLiveBytesHigh;
        this.unexaminedLiveBytes = unexaminedLiveBytes;
        this.markings = markings;
        this.liveBytesPerMinute = liveBytesPerMinute;
        this.growth = growth;
        this.maxAgeMillis = maxAgeMillis;
        this.medianAgeMillis = medianAgeMillis;
        this.medianGcsSurvived = medianGcsSurvived;
        this.tracked = tracked;
        this.snapshots = snapshots;
        this.reason = reason;
    }

    public int getRank() {
        return rank;
    }

    /** leak suspect, cache-like, stable or transient. */
    public String getVerdict() {
        return verdict;
    }

    /** 0-1. */
    public double getConfidence() {
        return confidence;
    }

    public String getType() {
        return type;
    }

    public String getAllocatedAt() {
        return allocatedAt;
    }

    /** An estimate. */
    public double getEstimatedLiveBytes() {
        return estimatedLiveBytes;
    }

    /** Theil–Sen slope of the estimated live bytes. */
    public double getLiveBytesPerMinute() {
        return liveBytesPerMinute;
    }

    /** Growth over the site's window relative to its recent level. */
    public double getGrowth() {
        return growth;
    }

    public long getMaxAgeMillis() {
        return maxAgeMillis;
    }

    public long getMedianAgeMillis() {
        return medianAgeMillis;
    }

    public long getMedianGcsSurvived() {
        return medianGcsSurvived;
    }

    /** Tracked (sampled) live objects behind the figures, a count. */
    public long getTracked() {
        return tracked;
    }

    /** Snapshots in the site's window, a count. */
    public int getSnapshots() {
        return snapshots;
    }

    /** The evidence in words. */
    public String getReason() {
        return reason;
    }

    /** Lower end of the 95% interval of the proven live bytes. */
    public double getEstimatedLiveBytesLow() {
        return estimatedLiveBytesLow;
    }

    /** Upper end of the 95% interval of the proven live bytes. */
    public double getEstimatedLiveBytesHigh() {
        return estimatedLiveBytesHigh;
    }

    /** Live bytes no whole-heap marking has examined yet (an estimate; may be garbage). */
    public double getUnexaminedLiveBytes() {
        return unexaminedLiveBytes;
    }

    /** Whole-heap markings in the site's window (a count): the proof behind the verdict. */
    public long getMarkings() {
        return markings;
    }
}
