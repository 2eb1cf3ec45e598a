package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** Writes a profile in one format. */
public interface ProfileWriter {

    void write(AllocationProfile profile, OutputStream out) throws IOException;

    static ProfileWriter of(ProfileFormat format) {
        return switch (format) {
            case TEXT -> new TextReport();
            case PPROF -> new PprofWriter("alloc_space");
            case COLLAPSED -> new CollapsedWriter();
            case JSON -> new JsonWriter();
            case HTML -> new HtmlFlameGraph();
            case OTLP -> new OtlpWriter();
        };
    }

    /**
     * pprof as Go's {@code /debug/pprof/heap} serves it: the same four sample types as the
     * {@code pprof} format (Go's allocs), with in-use space shown by default.
     */
    static byte[] goHeapProfile(AllocationProfile profile) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            new PprofWriter("inuse_space").write(profile, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * pprof for a scraper of continuous sampling (Pyroscope/Alloy, Parca): Go's allocs ({@code heap}
     * false) or heap conventions, every sample labelled with {@code labels}, stamped at its end, no
     * per-sample count label (see {@link PprofWriter}).
     */
    static byte[] scrapeProfile(AllocationProfile profile, boolean heap, java.util.Map<String, String> labels) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            new PprofWriter(heap ? "inuse_space" : "alloc_space", labels).write(profile, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * OTLP for continuous sampling's push to a collector: {@code service.name} the service its scrapes
     * carry, and {@code host.name}, as resource attributes.
     */
    static byte[] otlpPush(AllocationProfile profile, String service, String host) {
        return OtlpWriter.encode(profile, service, host);
    }

    /** The whole output in memory (dumps are small: a few MB at most). */
    static byte[] toBytes(AllocationProfile profile, ProfileFormat format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            of(format).write(profile, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
