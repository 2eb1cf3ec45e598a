package io.heaptap.profile.format;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** The protobuf wire format, just the parts pprof and OTLP need: varints, fixed64, packed varints, bytes, messages. */
final class ProtoWriter {
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    ProtoWriter uint64(int field, long value) {
        if (value != 0) {  // proto3: zero is the default and is not written
            tag(field, VARINT);
            varint(value);
        }
        return this;
    }

    /** A varint written even when zero: a member of a oneof (OTLP's AnyValue), where zero is a value. */
    ProtoWriter oneofUint64(int field, long value) {
        tag(field, VARINT);
        varint(value);
        return this;
    }

    /** A fixed64 field (OTLP's timestamps), little-endian; zero is not written. */
    ProtoWriter fixed64(int field, long value) {
        if (value != 0) {
            tag(field, FIXED64);
            for (int i = 0; i < 8; i++) {
                out.write((int) (value >>> (8 * i)) & 0xFF);
            }
        }
        return this;
    }

    ProtoWriter bool(int field, boolean value) {
        return uint64(field, value ? 1 : 0);
    }

    ProtoWriter packed(int field, long[] values) {
        if (values.length == 0) {
            return this;
        }
        ProtoWriter body = new ProtoWriter();
        for (long v : values) {
            body.varint(v);
        }
        return bytes(field, body.toByteArray());
    }

    ProtoWriter string(int field, String value) {
        // Repeated string_table entries must be written even when empty (index 0 is "").
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    ProtoWriter message(int field, ProtoWriter message) {
        return bytes(field, message.toByteArray());
    }

    /** Another writer's fields, as they are (the fields of one message written in parts). */
    ProtoWriter append(ProtoWriter fields) {
        out.writeBytes(fields.toByteArray());
        return this;
    }

    private ProtoWriter bytes(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        varint(value.length);
        out.writeBytes(value);
        return this;
    }

    private void tag(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    private void varint(long value) {
        long v = value;
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
