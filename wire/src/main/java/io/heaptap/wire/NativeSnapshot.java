package io.heaptap.wire;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Drops;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What the native agent holds for the current or last capture, decoded.
 *
 * @param generation    increases with every start and reset; tells captures apart
 * @param intervalBytes the sampling interval the capture used
 * @param stackDepth    the depth limit the capture used
 * @param samples       samples recorded
 * @param drops         what was dropped or refused
 * @param live          the state of live tracking
 * @param sites         per (stack, type) counters and live objects
 */
public record NativeSnapshot(long generation, long intervalBytes, int stackDepth, long samples, Drops drops, LiveInfo live,
                             List<AllocationSite> sites) {
    public NativeSnapshot {
        sites = List.copyOf(sites);
    }

    /**
     * Decodes a native snapshot ({@link RawSnapshot}'s bytes), in the target or in the CLI; its live
     * set is split by {@code proof} (see {@link LiveProof}: read in the target before the snapshot).
     */
    public static NativeSnapshot read(InputStream in, LiveFilter filter, LiveProof proof) throws IOException {
        return SnapshotDecoder.decode(new DataInputStream(new BufferedInputStream(in)), filter, proof);
    }

    /**
     * What was counted since {@code base} (counters of an earlier snapshot of the same generation):
     * per site id, this snapshot's counters minus the base's (a site made since counts whole), and
     * the live set as it is now (in-use is a state, not a flow). The stacks are shared, not copied.
     *
     * @throws IllegalArgumentException the base belongs to another generation (the agent was started
     *                                  or reset since: its site ids mean other sites now)
     */
    public NativeSnapshot since(SiteCounters base) {
        if (base.generation() != generation) {
            throw new IllegalArgumentException("the counters are of generation " + base.generation() + ", the snapshot of "
                    + generation);
        }
        List<AllocationSite> delta = new ArrayList<>(sites.size());
        for (int i = 0; i < sites.size(); i++) {
            AllocationSite s = sites.get(i);
            if (i >= base.sites()) {
                delta.add(s);
                continue;
            }
            // Counters only grow within a generation; max() guards the estimates against rounding.
            delta.add(new AllocationSite(s.stack(), s.truncated(), s.type(), Math.max(0, s.samples() - base.samplesAt(i)),
                    Math.max(0, s.estimatedObjects() - base.objectsAt(i)), Math.max(0, s.estimatedBytes() - base.bytesAt(i)),
                    Math.max(0, s.objectsVariance() - base.objectsVarianceAt(i)),
                    Math.max(0, s.bytesVariance() - base.bytesVarianceAt(i)), s.live()));
        }
        Drops d = drops;
        Drops b = base.drops();
        Drops deltaDrops = new Drops(d.samplesDropped() - b.samplesDropped(), d.samplesWithoutStack() - b.samplesWithoutStack(),
                d.samplesStackError() - b.samplesStackError(), d.samplesTruncated() - b.samplesTruncated(),
                d.samplesAfterDeadline() - b.samplesAfterDeadline(), d.classesDropped() - b.classesDropped(),
                d.methodsUnresolved());
        return new NativeSnapshot(generation, intervalBytes, stackDepth, Math.max(0, samples - base.samples()), deltaDrops, live,
                delta);
    }
}
