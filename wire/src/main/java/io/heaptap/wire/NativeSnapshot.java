package io.heaptap.wire;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Drops;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
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
}
