package io.heaptap.jmx;

import javax.management.ConstructorParameters;

/** A row of {@code topLive}: what one allocation site holds alive now. */
public final class LiveRow {
    private final int rank;
    private final String type;
    private final String allocatedAt;
    private final double estimatedLiveBytes;
    private final double estimatedLiveBytesLow;
    private final double estimatedLiveBytesHigh;
    private final double unexaminedLiveBytes;
    private final double estimatedLiveObjects;
    private final long tracked;
    private final long medianAgeMillis;
    private final long maxAgeMillis;
    private final long medianGcsSurvived;

    @ConstructorParameters({"rank", "type", "allocatedAt", "estimatedLiveBytes", "estimatedLiveBytesLow",
            "estimatedLiveBytesHigh", "unexaminedLiveBytes", "estimatedLiveObjects", "tracked",
            "medianAgeMillis", "maxAgeMillis", "medianGcsSurvived"})
    public LiveRow(int rank, String type, String allocatedAt, double estimatedLiveBytes, double estimatedLiveBytesLow,
                   double estimatedLiveBytesHigh, double unexaminedLiveBytes, double estimatedLiveObjects,
                   long tracked, long medianAgeMillis, long maxAgeMillis, long medianGcsSurvived) {
        this.rank = rank;
        this.type = type;
        this.allocatedAt = allocatedAt;
        this.estimatedLiveBytes = estimatedLiveBytes;
        this.estimatedLiveBytesLow = estimatedLiveBytesLow;
        this.estimatedLiveBytesHigh = estimatedLiveBytesHigh;
        this.unexaminedLiveBytes = unexaminedLiveBytes;
        this.estimatedLiveObjects = estimatedLiveObjects;
        this.tracked = tracked;
        this.medianAgeMillis = medianAgeMillis;
        this.maxAgeMillis = maxAgeMillis;
        this.medianGcsSurvived = medianGcsSurvived;
    }

    public int getRank() {
        return rank;
    }

    public String getType() {
        return type;
    }

    public String getAllocatedAt() {
        return allocatedAt;
    }

    public double getEstimatedLiveBytes() {
        return estimatedLiveBytes;
    }

    public double getEstimatedLiveObjects() {
        return estimatedLiveObjects;
    }

    public long getTracked() {
        return tracked;
    }

    public long getMedianAgeMillis() {
        return medianAgeMillis;
    }

    public long getMaxAgeMillis() {
        return maxAgeMillis;
    }

    public long getMedianGcsSurvived() {
        return medianGcsSurvived;
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
}
