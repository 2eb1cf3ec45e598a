package io.heaptap.jmx;

import javax.management.ConstructorParameters;

/** A row of {@code topAllocations}: one allocation site as JConsole shows it in a table. */
public final class AllocationRow {
    private final int rank;
    private final String type;
    private final String allocatedAt;
    private final double estimatedBytes;
    private final double percent;
    private final double estimatedObjects;
    private final long samples;

    @ConstructorParameters({"rank", "type", "allocatedAt", "estimatedBytes", "percent", "estimatedObjects", "samples"})
    public AllocationRow(int rank, String type, String allocatedAt, double estimatedBytes, double percent,
                         double estimatedObjects, long samples) {
        this.rank = rank;
        this.type = type;
        this.allocatedAt = allocatedAt;
        this.estimatedBytes = estimatedBytes;
        this.percent = percent;
        this.estimatedObjects = estimatedObjects;
        this.samples = samples;
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

    public double getEstimatedBytes() {
        return estimatedBytes;
    }

    public double getPercent() {
        return percent;
    }

    public double getEstimatedObjects() {
        return estimatedObjects;
    }

    public long getSamples() {
        return samples;
    }
}
