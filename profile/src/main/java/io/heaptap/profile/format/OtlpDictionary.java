package io.heaptap.profile.format;

import io.heaptap.profile.Frame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tables an OTLP profiles message shares between its profiles ({@code ProfilesDictionary} of
 * opentelemetry-proto 1.10): strings, functions, locations, stacks and attributes, each handed out
 * as an index into its table. Every table starts with its zero value, as the proto requires, so
 * that index 0 means "not set".
 */
final class OtlpDictionary {
    // ProfilesDictionary field numbers
    private static final int MAPPING_TABLE = 1, LOCATION_TABLE = 2, FUNCTION_TABLE = 3, LINK_TABLE = 4, STRING_TABLE = 5,
            ATTRIBUTE_TABLE = 6, STACK_TABLE = 7;
    /** Every frame is a Java frame (the allocated type, the leaf, stands in one): semantic conventions' frame type. */
    private static final String FRAME_TYPE = "profile.frame.type";

    private final List<String> strings = new ArrayList<>(List.of(""));
    private final Map<String, Integer> stringIds = new HashMap<>(Map.of("", 0));
    private final Map<Frame, Integer> functions = new LinkedHashMap<>();
    private final Map<Frame, Integer> locations = new LinkedHashMap<>();
    private final Map<Stack, Integer> stacks = new LinkedHashMap<>();
    private final Map<Attribute, Integer> attributes = new LinkedHashMap<>();
    private final int frameType;

    OtlpDictionary() {
        frameType = attribute(FRAME_TYPE, "jvm");
    }

    int string(String s) {
        return stringIds.computeIfAbsent(s, k -> {
            strings.add(k);
            return strings.size() - 1;
        });
    }

    /** The stack of frames given leaf first; the same frames give the same index. */
    int stack(List<Frame> leafFirst) {
        int[] indices = new int[leafFirst.size()];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = location(leafFirst.get(i));
        }
        return stacks.computeIfAbsent(new Stack(indices), k -> stacks.size() + 1);
    }

    /** A string-valued attribute (a sample's, a profile's). */
    int attribute(String key, String value) {
        return attributes.computeIfAbsent(new Attribute(key, value, 0, ""), k -> attributes.size() + 1);
    }

    /** An integer-valued attribute with its unit ("count", "bytes"). */
    int attribute(String key, long value, String unit) {
        return attributes.computeIfAbsent(new Attribute(key, null, value, unit), k -> attributes.size() + 1);
    }

    /** Locations are per (method, line), functions per method, as in the pprof writer. */
    private int location(Frame f) {
        return locations.computeIfAbsent(f, k -> {
            functions.computeIfAbsent(functionKey(f), fk -> functions.size() + 1);
            return locations.size() + 1;
        });
    }

    private static Frame functionKey(Frame f) {
        return new Frame(f.className(), f.methodName(), f.sourceFile(), -1);
    }

    /** The {@code ProfilesDictionary} message; call it last, when every index has been handed out. */
    ProtoWriter encode() {
        // The tables are built before any is written: they take strings, and the string table
        // (field 5) comes before the attribute and stack tables, in field order as protobuf writes.
        ProtoWriter mappings = new ProtoWriter().message(MAPPING_TABLE, new ProtoWriter())
                // One mapping for all of the JVM's code, as in the pprof writer: consumers that resolve
                // addresses through mappings find the synthetic addresses inside it.
                .message(MAPPING_TABLE, new ProtoWriter().uint64(2, -1L).uint64(4, string("[jvm]")));

        ProtoWriter locationTable = new ProtoWriter().message(LOCATION_TABLE, new ProtoWriter());
        Set<Long> usedAddresses = new HashSet<>();
        for (Frame f : locations.keySet()) {
            ProtoWriter line = new ProtoWriter().uint64(1, functions.get(functionKey(f))).uint64(2, Math.max(f.line(), 0));
            locationTable.message(LOCATION_TABLE, new ProtoWriter().uint64(1, 1)
                    .uint64(2, PprofWriter.syntheticAddress(f, usedAddresses)).message(3, line).packed(4, new long[] {frameType}));
        }

        ProtoWriter functionTable = new ProtoWriter().message(FUNCTION_TABLE, new ProtoWriter());
        for (Frame f : functions.keySet()) {
            long name = string(f.functionName());
            functionTable.message(FUNCTION_TABLE, new ProtoWriter().uint64(1, name).uint64(2, name)
                    .uint64(3, string(f.sourceFile() == null ? "" : f.sourceFile())));
        }

        ProtoWriter attributeTable = new ProtoWriter().message(ATTRIBUTE_TABLE, new ProtoWriter());
        for (Attribute a : attributes.keySet()) {
            ProtoWriter value = a.text() != null ? new ProtoWriter().string(1, a.text()) : new ProtoWriter().oneofUint64(3, a.number());
            attributeTable.message(ATTRIBUTE_TABLE, new ProtoWriter().uint64(1, string(a.key())).message(2, value)
                    .uint64(3, string(a.unit())));
        }

        ProtoWriter stackTable = new ProtoWriter().message(STACK_TABLE, new ProtoWriter());
        for (Stack s : stacks.keySet()) {
            stackTable.message(STACK_TABLE, new ProtoWriter().packed(1, Arrays.stream(s.locations()).asLongStream().toArray()));
        }

        ProtoWriter d = new ProtoWriter().append(mappings).append(locationTable).append(functionTable)
                .message(LINK_TABLE, new ProtoWriter());
        for (String s : strings) {
            d.string(STRING_TABLE, s);
        }
        return d.append(attributeTable).append(stackTable);
    }

    private record Stack(int[] locations) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Stack s && Arrays.equals(locations, s.locations);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(locations);
        }
    }

    /** A text attribute has {@code text}; a number has {@code text} null. */
    private record Attribute(String key, String text, long number, String unit) {
    }
}
