package io.heaptap.nativeagent;

import io.heaptap.profile.LiveFilter;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.SiteCounters;

import java.io.IOException;
import java.time.Duration;

/**
 * Every read of what the sampler holds: a decoded snapshot, its counters alone, an undecoded one, the
 * table sizes a read's cost is estimated from, and reference paths. The session's profile reader (and
 * a window's ends) use it. {@link NativeAgent} implements it; see there for what each does.
 */
public interface Snapshots {
    NativeSnapshot snapshot(LiveFilter filter, LiveProof proof) throws IOException;

    SiteCounters counters() throws IOException;

    RawSnapshot openSnapshot(LiveProof proof) throws IOException;

    TableSizes tableSizes();

    PathSearch referencePaths(int[] sites, int maxPaths, int maxDepth, int maxObjects, Duration timeLimit) throws IOException;
}
