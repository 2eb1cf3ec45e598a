package io.heaptap.it.support;

import com.google.perftools.profiles.ProfileProto.Profile;

import java.util.List;

/** The sample types of a pprof profile, and those of a Go heap profile that scrapers expect. */
public final class PprofTypes {
    public static final List<String> GO_HEAP_TYPES = List.of("alloc_objects/count", "alloc_space/bytes", "inuse_objects/count",
            "inuse_space/bytes");

    private PprofTypes() {
    }

    public static List<String> types(Profile p) {
        return p.getSampleTypeList().stream()
                .map(t -> p.getStringTable((int) t.getType()) + "/" + p.getStringTable((int) t.getUnit())).toList();
    }
}
