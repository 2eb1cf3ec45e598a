package io.heaptap.wire;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.Estimate;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveHold;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.TrackedObject;
import io.heaptap.profile.TypeNames;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the binary snapshot written through native-agent's snapshotWriter.h (big-endian; the layout
 * is described there). MAGIC and VERSION must equal kSnapshotMagic and kSnapshotVersion (NativeConstantsTest).
 */
public final class SnapshotDecoder {
    public static final int MAGIC = 0x48544150;  // "HTAP"
    public static final int VERSION = 6;
    public static final int NONE = 0xFFFFFFFF;  // kNone
    static final int OTHER_STACKS = 0xFFFFFFFE;  // kOtherStacks: samples whose stack did not fit the tables
    static final List<Frame> OTHER_STACKS_FRAMES = List.of(Frame.synthetic("[other stacks]"));
    static final Frame UNKNOWN_METHOD = Frame.synthetic("[unknown-method]");

    private SnapshotDecoder() {
    }

    private record Method(String className, String name, String sourceFile, int[] startBcis, int[] lines) {
        Frame frameAt(int bci) {
            int line = -1;
            for (int i = 0; i < startBcis.length && startBcis[i] <= bci; i++) {
                line = lines[i];
            }
            return new Frame(className, name, sourceFile, line);
        }
    }

    /**
     * {@code proof}: objects allocated before its {@link System#nanoTime()} instant have been examined by
     * a completed whole-heap marking, so those still tracked are proven live; younger ones are not yet
     * examined. It must be read before the snapshot is taken: a marking that completes meanwhile would
     * otherwise vouch for references checked before it cleared them.
     */
    public static NativeSnapshot decode(DataInputStream in, LiveFilter filter, LiveProof proof) throws IOException {
        checkFormat(in);
        long generation = in.readLong();
        long interval = in.readLong();
        int depth = in.readInt();

        String[] strings = new String[in.readInt()];
        for (int i = 0; i < strings.length; i++) {
            strings[i] = in.readUTF();  // JVMTI's modified UTF-8 is exactly what readUTF decodes
        }
        long samples = in.readLong();
        Drops drops = readDrops(in);

        Method[] methods = new Method[in.readInt()];
        for (int i = 0; i < methods.length; i++) {
            String className = TypeNames.fromSignature(strings[in.readInt()]);
            String name = strings[in.readInt()];
            int source = in.readInt();
            int n = in.readInt();
            int[] starts = new int[n];
            int[] lines = new int[n];
            for (int k = 0; k < n; k++) {
                starts[k] = in.readInt();
                lines[k] = in.readInt();
            }
            methods[i] = new Method(className, name, source == NONE ? null : strings[source], starts, lines);
        }

        Frame[] frames = new Frame[in.readInt()];
        for (int i = 0; i < frames.length; i++) {
            int method = in.readInt();
            int bci = in.readInt();
            frames[i] = method == NONE ? UNKNOWN_METHOD : methods[method].frameAt(bci);
        }

        int stackCount = in.readInt();
        List<List<Frame>> stacks = new ArrayList<>(stackCount);
        boolean[] truncated = new boolean[stackCount];
        for (int i = 0; i < stackCount; i++) {
            truncated[i] = in.readUnsignedByte() != 0;
            Frame[] stack = new Frame[in.readInt()];
            for (int k = 0; k < stack.length; k++) {
                stack[k] = frames[in.readInt()];
            }
            stacks.add(Arrays.asList(stack));
        }

        record RawSite(int stack, String type, long samples, double objects, double bytes, double objectsVariance,
                       double bytesVariance) {
        }
        int siteCount = in.readInt();
        List<RawSite> raw = new ArrayList<>(siteCount);
        for (int i = 0; i < siteCount; i++) {
            int stack = in.readInt();
            String type = TypeNames.fromSignature(strings[in.readInt()]);
            long siteSamples = in.readLong();
            double objects = in.readDouble();
            double estimatedBytes = in.readDouble();
            double objectsVariance = in.readDouble();
            double bytesVariance = in.readDouble();
            raw.add(new RawSite(stack, type, siteSamples, objects, estimatedBytes, objectsVariance, bytesVariance));
        }

        long nowNanos = in.readLong();  // the agent's CLOCK_MONOTONIC, the same clock as System.nanoTime()
        boolean liveEnabled = in.readUnsignedByte() != 0;
        long budget = Integer.toUnsignedLong(in.readInt());
        double keep = in.readDouble();
        long admitted = in.readLong();
        long skipped = in.readLong();
        long thinnings = in.readLong();
        long thinned = in.readLong();
        long died = in.readLong();
        long refFailures = in.readLong();
        long weakRefs = in.readLong();
        long gcCount = in.readLong();
        LiveHold hold = new LiveHold(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                in.readLong(), in.readLong(), in.readDouble(), proof.policy().share(), proof.policy().strict(), proof.policy().collector());
        int liveCount = in.readInt();
        List<List<TrackedObject>> tracked = new ArrayList<>(siteCount);
        for (int i = 0; i < siteCount; i++) {
            tracked.add(new ArrayList<>());
        }
        for (int i = 0; i < liveCount; i++) {
            int site = in.readInt();
            long size = in.readLong();
            double objects = in.readDouble();
            double bytesWeight = in.readDouble();
            long age = in.readLong();
            long gcs = in.readLong();
            boolean large = in.readUnsignedByte() != 0;
            boolean proven = nowNanos - age < proof.provenBeforeNanos();
            TrackedObject o = new TrackedObject(size, objects, bytesWeight, age, gcs, proven, large || proof.trackingHoldsAll());
            if (site >= 0 && site < siteCount && filter.accepts(o)) {
                tracked.get(site).add(o);
            }
        }

        LiveStats.LetGo[] letGo = new LiveStats.LetGo[siteCount];
        int letGoCount = in.readInt();
        for (int i = 0; i < letGoCount; i++) {
            int site = in.readInt();
            double unitObjects = in.readDouble();
            double unitBytes = in.readDouble();
            Estimate releasedObjects = new Estimate(in.readDouble(), in.readDouble());
            LiveStats.LetGo g = new LiveStats.LetGo(unitObjects, unitBytes, releasedObjects, new Estimate(in.readDouble(), in.readDouble()));
            if (site >= 0 && site < siteCount) {
                letGo[site] = g;
            }
        }

        List<AllocationSite> sites = new ArrayList<>(siteCount);
        for (int i = 0; i < siteCount; i++) {
            RawSite r = raw.get(i);
            boolean noStack = r.stack() == NONE || r.stack() == OTHER_STACKS;
            sites.add(new AllocationSite(r.stack() == NONE ? List.of() : noStack ? OTHER_STACKS_FRAMES : stacks.get(r.stack()),
                    !noStack && truncated[r.stack()], r.type(),
                    r.samples(), r.objects(), r.bytes(), r.objectsVariance(), r.bytesVariance(), LiveStats.of(tracked.get(i),
                    letGo[i] == null ? LiveStats.LetGo.NONE : letGo[i])));
        }
        LiveInfo live = new LiveInfo(liveEnabled, budget, liveCount, keep, admitted, skipped + refFailures, thinnings, thinned,
                died, weakRefs, gcCount, filter, proof.gcForced(), proof.markings(), proof.heapUsedBytes(), proof.heapMaxBytes(), hold);
        return new NativeSnapshot(generation, interval, depth, samples, drops, live, sites);
    }

    /**
     * Reads only the counters of a snapshot ({@link SiteCounters}): names, methods, frames and stacks
     * are skipped unread and the live set is not reached, so the heap holds 40 bytes a site and the
     * stream's buffer, never a decoded profile.
     */
    public static SiteCounters counters(DataInputStream in) throws IOException {
        checkFormat(in);
        long generation = in.readLong();
        in.readLong();  // interval
        in.readInt();  // depth
        int strings = in.readInt();
        for (int i = 0; i < strings; i++) {
            in.skipNBytes(in.readUnsignedShort());  // writeUTF's length, then the bytes
        }
        long samples = in.readLong();
        Drops drops = readDrops(in);
        int methods = in.readInt();
        for (int i = 0; i < methods; i++) {
            in.skipNBytes(3L * Integer.BYTES);  // class, name, source file
            in.skipNBytes(2L * Integer.BYTES * in.readInt());  // the line table's (start, line) pairs
        }
        in.skipNBytes(2L * Integer.BYTES * in.readInt());  // frames: (method, bci)
        int stacks = in.readInt();
        for (int i = 0; i < stacks; i++) {
            in.readUnsignedByte();  // truncated
            in.skipNBytes((long) Integer.BYTES * in.readInt());
        }
        int sites = in.readInt();
        if (sites < 0) {
            throw new IOException("a snapshot of " + sites + " sites");
        }
        SiteCounters counters = new SiteCounters(generation, samples, drops, new long[sites], new double[sites], new double[sites],
                new double[sites], new double[sites]);
        for (int i = 0; i < sites; i++) {
            in.skipNBytes(2L * Integer.BYTES);  // stack, class
            counters.set(i, in.readLong(), in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble());
        }
        return counters;
    }

    private static void checkFormat(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("not a heaptap snapshot");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("snapshot format " + version + ", expected " + VERSION);
        }
    }

    private static Drops readDrops(DataInputStream in) throws IOException {
        return new Drops(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
    }
}
