package io.heaptap.wire;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.format.RecordJson;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A dump as the CLI fetches it: the capture undecoded, so that the CLI decodes and encodes it on its
 * own heap and the target never builds a profile or a human format for it. Layout: "HTDU", format
 * version, the {@link DumpHeader} as JSON (length-prefixed UTF-8), then the native snapshot
 * (SnapshotDecoder's format).
 */
public final class RawDump {
    static final int MAGIC = 0x48544455;  // "HTDU"
    static final int VERSION = 1;

    private RawDump() {
    }

    /** Everything before the native snapshot. */
    public static byte[] prefix(DumpHeader header) {
        byte[] json = RecordJson.write(header).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(json.length + 12);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(json.length);
            out.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The profile of a raw dump, its live view seen through {@code filter}. */
    public static AllocationProfile read(InputStream raw, LiveFilter filter) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        if (in.readInt() != MAGIC) {
            throw new IOException("not a heaptap raw dump");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("raw dump format " + version + ", this heaptap reads " + VERSION
                    + ": use the heaptap.jar of the agent loaded in the target");
        }
        byte[] json = in.readNBytes(in.readInt());
        DumpHeader header = RecordJson.read(new String(json, StandardCharsets.UTF_8), DumpHeader.class);
        return header.profile(NativeSnapshot.read(in, filter, header.proof()));
    }
}
