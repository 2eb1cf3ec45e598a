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
            case PPROF -> new PprofWriter();
            case COLLAPSED -> new CollapsedWriter();
            case JSON -> new JsonWriter();
            case HTML -> new HtmlFlameGraph();
        };
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
