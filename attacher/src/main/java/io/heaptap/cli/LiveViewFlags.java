package io.heaptap.cli;

import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.session.CaptureOptions;

import java.io.IOException;

import picocli.CommandLine.Option;

/** How the live view of a dump is taken, shared by {@code capture} and {@code dump}. */
final class LiveViewFlags {
    @Option(names = "--min-age", paramLabel = "<duration>",
            description = "Live view: only objects at least this old, e.g. 10s. Age alone proves nothing: only a whole-heap marking"
                    + " does, and the view keeps proven live apart from not yet examined.")
    String minAge;

    @Option(names = "--min-gcs", defaultValue = "0", paramLabel = "<n>",
            description = "Live view: only objects that survived at least this many collections. Default: ${DEFAULT-VALUE}.")
    long minGcs;

    @Option(names = "--gc", description = "Force a full GC in the target right before the live view, so every tracked object"
            + " allocated before it is proven live or gone. This pauses the application for the length of a full collection.")
    boolean gc;

    /** Checks the values before anything is attached to. */
    LiveFilter validate() {
        return CaptureOptions.parseFilter(minAge, minGcs);
    }

    /** The profile with this live view, fetched undecoded and decoded here ({@link RemoteProfile}). */
    AllocationProfile dump(HeaptapMXBean heaptap) throws IOException {
        return RemoteProfile.fetch(heaptap, validate(), gc);
    }
}
