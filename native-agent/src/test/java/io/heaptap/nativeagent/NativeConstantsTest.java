package io.heaptap.nativeagent;

import io.heaptap.wire.NativeLimits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.heaptap.wire.SnapshotDecoder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The constants stated on both sides of the native boundary agree: the snapshot's magic, version
 * and "no entry" marker (snapshotWriter.h, limits.h against SnapshotDecoder), and the largest stack
 * depth and reference-path depth (limits.h against NativeLimits). Read from the C++ sources the
 * library is built from.
 */
class NativeConstantsTest {
    private static final Path CPP = Path.of("src/main/cpp");

    static long constant(String header, String name) throws IOException {
        String source = Files.readString(CPP.resolve(header));
        Matcher m = Pattern.compile("constexpr \\w+ " + name + " = (0x[0-9A-Fa-f]+|\\d+)u?;").matcher(source);
        if (!m.find()) {
            throw new AssertionError(name + " not found in " + header);
        }
        String v = m.group(1);
        return v.startsWith("0x") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
    }

    @Test
    void snapshotFormat() throws IOException {
        assertEquals(Integer.toUnsignedLong(SnapshotDecoder.MAGIC), constant("snapshotWriter.h", "kSnapshotMagic"));
        assertEquals(SnapshotDecoder.VERSION, constant("snapshotWriter.h", "kSnapshotVersion"));
        assertEquals(Integer.toUnsignedLong(SnapshotDecoder.NONE), constant("limits.h", "kNone"));
    }

    /** tableSizes0 hands over kTableSizes figures, one for each component of TableSizes. */
    @Test
    void tableSizes() throws IOException {
        assertEquals(TableSizes.COUNT, constant("sampler.h", "kTableSizes"));
        assertEquals(TableSizes.COUNT, TableSizes.class.getRecordComponents().length);
        long[] figures = new long[TableSizes.COUNT];
        for (int i = 0; i < figures.length; i++) {
            figures[i] = i + 1;
        }
        TableSizes named = TableSizes.of(figures);
        assertEquals(1, named.classes());
        assertEquals(10, named.weakRefs());
        assertEquals(TableSizes.NONE, TableSizes.of(null));
        assertThrows(IllegalStateException.class, () -> TableSizes.of(new long[TableSizes.COUNT - 1]));
    }

    @Test
    void limits() throws IOException {
        assertEquals(NativeLimits.MAX_STACK_DEPTH, constant("limits.h", "kMaxStackDepth"));
        assertEquals(NativeLimits.MAX_PATH_DEPTH, constant("limits.h", "kMaxPathDepth"));
    }
}
