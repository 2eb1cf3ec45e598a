package io.heaptap.cli;

import io.heaptap.cli.args.Arguments;
import io.heaptap.cli.args.Flag;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.wire.options.CaptureOptions;

import java.io.IOException;
import java.util.List;

/** How the live view of a dump is taken, shared by {@code capture} and {@code dump}. */
record LiveViewFlags(String minAge, long minGcs, boolean gc) {
    static final List<Flag> FLAGS = List.of(
            Flag.value("--min-age", "<duration>",
                    "Live view: only objects at least this old, e.g. 10s. Age alone proves nothing: only a whole-heap marking"
                            + " does, and the view keeps proven live apart from not yet examined."),
            Flag.value("--min-gcs", "<n>", "Live view: only objects that survived at least this many collections. Default: 0."),
            Flag.toggle("--gc", "Force a full GC in the target right before the live view, so every tracked object"
                    + " allocated before it is proven live or gone, and take a class census of the whole heap right after it (shown in"
                    + " text and json). This pauses the application for the length of a full collection, then briefly for the census."));

    /** No filter and no forced collection. */
    static final LiveViewFlags NONE = new LiveViewFlags(null, 0, false);

    static LiveViewFlags from(Arguments args) {
        return new LiveViewFlags(args.value("--min-age"), args.longValue("--min-gcs", 0), args.has("--gc"));
    }

    /** Checks the values before anything is attached to. */
    LiveFilter validate() {
        return CaptureOptions.parseFilter(minAge, minGcs);
    }

    /**
     * The profile with this live view, fetched undecoded and decoded here ({@link RemoteProfile}); with the class
     * census of --gc only when {@code format} shows one.
     */
    AllocationProfile dump(HeaptapMXBean heaptap, ProfileFormat format) throws IOException {
        return RemoteProfile.fetch(heaptap, validate(), gc, format.showsCensus());
    }
}
