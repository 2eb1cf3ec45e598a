package io.heaptap.wire;

import io.heaptap.profile.Drops;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A snapshot's counters and nothing else: per site id, its samples and its estimates with their
 * variances, in primitive arrays (40 bytes a site), with the generation they belong to. A
 * {@link CounterWindow} keeps these as its ends (a delta scrape's baseline for its N seconds, a
 * capture's start during continuous sampling) instead of a decoded profile, which costs a hundred
 * times more. Sites are identified by their id: the agent's site table only grows within a
 * generation (allocationStore.h), so site i of a later snapshot of the same generation is site i of
 * this one.
 *
 * <p>The arrays are owned by this object and never handed out.
 */
public final class SiteCounters {
    /** The heap one site takes here: five 8-byte counters. */
    public static final long BYTES_PER_SITE = 5 * Long.BYTES;
    /** The object and its five array headers. */
    public static final long FIXED_BYTES = 256;

    private final long generation;
    private final long samples;
    private final Drops drops;
    private final long[] siteSamples;
    private final double[] objects;
    private final double[] bytes;
    private final double[] objectsVariance;
    private final double[] bytesVariance;

    public SiteCounters(long generation, long samples, Drops drops, long[] siteSamples, double[] objects, double[] bytes,
                 double[] objectsVariance, double[] bytesVariance) {
        this.generation = generation;
        this.samples = samples;
        this.drops = drops;
        this.siteSamples = siteSamples;
        this.objects = objects;
        this.bytes = bytes;
        this.objectsVariance = objectsVariance;
        this.bytesVariance = bytesVariance;
    }

    /** The counters of a decoded snapshot (its sites in id order). */
    public static SiteCounters of(NativeSnapshot s) {
        int n = s.sites().size();
        SiteCounters c = new SiteCounters(s.generation(), s.samples(), s.drops(), new long[n], new double[n], new double[n],
                new double[n], new double[n]);
        for (int i = 0; i < n; i++) {
            var site = s.sites().get(i);
            c.set(i, site.samples(), site.estimatedObjects(), site.estimatedBytes(), site.objectsVariance(), site.bytesVariance());
        }
        return c;
    }

    /** Bytes {@link #write} writes for {@code sites} sites. */
    static long wireBytes(int sites) {
        return 2 * Long.BYTES + 7 * Long.BYTES + Integer.BYTES + BYTES_PER_SITE * (long) sites;
    }

    /** As a raw dump carries them ({@link CounterWindow#write}). */
    void write(DataOutputStream out) throws IOException {
        out.writeLong(generation);
        out.writeLong(samples);
        out.writeLong(drops.samplesDropped());
        out.writeLong(drops.samplesWithoutStack());
        out.writeLong(drops.samplesStackError());
        out.writeLong(drops.samplesTruncated());
        out.writeLong(drops.samplesAfterDeadline());
        out.writeLong(drops.classesDropped());
        out.writeLong(drops.methodsUnresolved());
        out.writeInt(sites());
        for (int i = 0; i < sites(); i++) {
            out.writeLong(siteSamples[i]);
            out.writeDouble(objects[i]);
            out.writeDouble(bytes[i]);
            out.writeDouble(objectsVariance[i]);
            out.writeDouble(bytesVariance[i]);
        }
    }

    static SiteCounters read(DataInputStream in) throws IOException {
        long generation = in.readLong();
        long samples = in.readLong();
        Drops drops = new Drops(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                in.readLong());
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("counters of " + n + " sites");
        }
        SiteCounters c = new SiteCounters(generation, samples, drops, new long[n], new double[n], new double[n], new double[n],
                new double[n]);
        for (int i = 0; i < n; i++) {
            c.set(i, in.readLong(), in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble());
        }
        return c;
    }

    /** What counters of {@code sites} sites take on the heap. */
    public static long bytesFor(long sites) {
        return FIXED_BYTES + BYTES_PER_SITE * Math.max(0, sites);
    }

    void set(int site, long samples, double objects, double bytes, double objectsVariance, double bytesVariance) {
        siteSamples[site] = samples;
        this.objects[site] = objects;
        this.bytes[site] = bytes;
        this.objectsVariance[site] = objectsVariance;
        this.bytesVariance[site] = bytesVariance;
    }

    /** Which start or reset of the agent they belong to: counters of two generations cannot be subtracted. */
    public long generation() {
        return generation;
    }

    public long samples() {
        return samples;
    }

    public Drops drops() {
        return drops;
    }

    public int sites() {
        return siteSamples.length;
    }

    public long heapBytes() {
        return bytesFor(sites());
    }

    public long samplesAt(int site) {
        return siteSamples[site];
    }

    public double objectsAt(int site) {
        return objects[site];
    }

    public double bytesAt(int site) {
        return bytes[site];
    }

    public double objectsVarianceAt(int site) {
        return objectsVariance[site];
    }

    public double bytesVarianceAt(int site) {
        return bytesVariance[site];
    }
}
