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
 * version, the {@link DumpHeader} as JSON (length-prefixed UTF-8), the {@link CounterWindow} the
 * profile counts (a capture during continuous sampling: its start and end counters), then the native
 * snapshot (SnapshotDecoder's format) with every counter as it stands.
 */
public final class RawDump {
    static final int MAGIC = 0x48544455;  // "HTDU"
    static final int VERSION = 2;

    private RawDump() {
    }

    /** Everything before the native snapshot. */
    public static byte[] prefix(DumpHeader header, CounterWindow window) {
        byte[] json = RecordJson.write(header).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.toIntExact(json.length + 12 + window.wireBytes()));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(json.length);
            out.write(json);
            window.write(out);
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
        CounterWindow window = CounterWindow.read(in);
        return header.profile(window.apply(NativeSnapshot.read(in, filter, header.proof())));
    }
}
