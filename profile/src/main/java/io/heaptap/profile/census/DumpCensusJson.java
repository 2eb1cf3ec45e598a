package io.heaptap.profile.census;

import io.heaptap.profile.format.JsonOutput;
import io.heaptap.profile.format.JsonReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A dump's census as JSON: the {@code census} object of the profile JSON (docs/schema/profile.schema.json),
 * and what the target hands the CLI beside a raw dump, read back here. Its size is bounded: {@link DumpCensus#TOP}
 * rows at most are written, whatever the census held.
 */
public final class DumpCensusJson {
    private DumpCensusJson() {
    }

    /** Writes the census object (or null) as the next value of {@code j}. */
    public static void write(JsonOutput j, DumpCensus dc) {
        if (dc == null) {
            j.value((String) null);
            return;
        }
        ClassCensus c = dc.census();
        j.beginObject().field("taken", dc.taken()).field("refusal", dc.refusal());
        j.field("censusPauseMillis", c == null ? 0 : c.pauseMillis())
                .field("heapAfterGcBytes", c == null ? 0 : c.heapAfterGcBytes())
                .field("maxHeapBytes", c == null ? 0 : c.maxHeapBytes())
                .field("censusBytes", c == null ? 0 : c.totalBytes())
                .field("censusInstances", c == null ? 0 : c.totalInstances());
        j.name("classes").beginArray();
        List<ClassCount> top = c == null ? List.of() : c.top();
        for (ClassCount row : top.subList(0, Math.min(DumpCensus.TOP, top.size()))) {
            j.beginObject().field("name", row.name()).field("instances", row.instances()).field("bytes", row.bytes()).endObject();
        }
        j.endArray();
        long restInstances = c == null ? 0 : c.rest().instances();
        long restBytes = c == null ? 0 : c.rest().bytes();
        int restClasses = c == null ? 0 : c.restClasses();
        for (ClassCount row : top.subList(Math.min(DumpCensus.TOP, top.size()), top.size())) {
            restInstances += row.instances();
            restBytes += row.bytes();
            restClasses++;
        }
        j.name("otherClasses").beginObject()
                .field("classes", restClasses)
                .field("instances", restInstances)
                .field("bytes", restBytes)
                .endObject();
        j.endObject();
    }

    public static String toJson(DumpCensus dc) {
        JsonOutput j = new JsonOutput();
        write(j, dc);
        return j.toString();
    }

    /**
     * The census {@link #toJson} wrote. Text that does not read as one (a target of another version) is a
     * refusal that says so, not an error of the dump.
     */
    public static DumpCensus parse(String json) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> o = (Map<String, Object>) JsonReader.parse(json);
            if (!(o.get("taken") instanceof Boolean taken)) {
                throw new IllegalArgumentException("no 'taken'");
            }
            if (!taken) {
                return DumpCensus.refused((String) o.get("refusal"));
            }
            List<ClassCount> top = new ArrayList<>();
            for (Object e : (List<?>) o.get("classes")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> row = (Map<String, Object>) e;
                top.add(new ClassCount((String) row.get("name"), number(row, "instances"), number(row, "bytes")));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> rest = (Map<String, Object>) o.get("otherClasses");
            int restClasses = (int) number(rest, "classes");
            return DumpCensus.of(new ClassCensus(0, number(o, "heapAfterGcBytes"), number(o, "maxHeapBytes"),
                    number(o, "censusPauseMillis"), top, new ClassCount(restClasses + " other classes", number(rest, "instances"),
                    number(rest, "bytes")), restClasses, number(o, "censusInstances"), number(o, "censusBytes")));
        } catch (RuntimeException unreadable) {
            return DumpCensus.refused("the target's census did not read as one (" + unreadable.getMessage() + ")");
        }
    }

    private static long number(Map<String, Object> o, String name) {
        Object v = o.get(name);
        if (!(v instanceof JsonReader.Number n)) {
            throw new IllegalArgumentException("no number '" + name + "'");
        }
        return n.asLong();
    }
}
