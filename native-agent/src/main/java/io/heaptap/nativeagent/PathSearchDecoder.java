package io.heaptap.nativeagent;

import io.heaptap.profile.TypeNames;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads what PathSearchWriter writes (layout in snapshotWriter.h, checked by PathSearchGoldenTest). */
final class PathSearchDecoder {
    private PathSearchDecoder() {
    }

    /** The walk's result; a refusal of the agent becomes an IllegalStateException with its message. */
    static PathSearch decode(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readUnsignedByte() != 1) {
            throw new IllegalStateException(in.readUTF());
        }
        int cutOff = in.readUnsignedByte();
        long objects = Integer.toUnsignedLong(in.readInt());
        long references = in.readLong();
        long depthLimited = in.readLong();
        long walkNanos = in.readLong();
        int targets = in.readInt();
        List<ReferencePath> paths = new ArrayList<>(targets);
        for (int t = 0; t < targets; t++) {
            int count = in.readInt();
            List<PathStep> steps = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String type = TypeNames.fromSignature(in.readUTF());
                boolean isClass = in.readUnsignedByte() != 0;
                HeapReferenceKind kind = HeapReferenceKind.of(in.readUnsignedByte());
                int index = in.readInt();
                String field = in.readUTF();
                String holder = in.readUTF();
                if (kind == HeapReferenceKind.STATIC_FIELD && !holder.isEmpty()) {
                    holder = TypeNames.fromSignature(holder);
                }
                steps.add(new PathStep(type, isClass, kind, index, field, holder));
            }
            paths.add(new ReferencePath(steps));
        }
        long resolveNanos = in.readLong();
        PathSearch.CutOff reason = switch (cutOff) {
            case 0 -> PathSearch.CutOff.NONE;
            case 1 -> PathSearch.CutOff.TIME;
            case 2 -> PathSearch.CutOff.OBJECTS;
            default -> PathSearch.CutOff.NO_MEMORY;
        };
        return new PathSearch(paths, reason, objects, references, depthLimited, Duration.ofNanos(walkNanos),
                Duration.ofNanos(resolveNanos));
    }
}
