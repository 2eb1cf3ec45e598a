package io.heaptap.profile.census;

import io.heaptap.profile.format.JsonOutput;

/** A census asked for on its own, as JSON (docs/schema/census.schema.json). */
public final class CensusJson {
    private CensusJson() {
    }

    public static String of(CensusReading reading, long pid) {
        ClassCensus c = reading.census();
        JsonOutput json = new JsonOutput().beginObject()
                .field("pid", pid)
                .field("collectionPauseMillis", reading.collectionPauseMillis())
                .field("censusPauseMillis", c.pauseMillis())
                .field("heapAfterGcBytes", c.heapAfterGcBytes())
                .field("maxHeapBytes", c.maxHeapBytes())
                .field("censusBytes", c.totalBytes())
                .field("censusInstances", c.totalInstances())
                .field("heaptapSamplesBytes", reading.heaptapSamplesBytes());
        json.name("classes").beginArray();
        for (ClassCount row : c.top()) {
            json.beginObject().field("name", row.name()).field("instances", row.instances()).field("bytes", row.bytes()).endObject();
        }
        json.endArray();
        json.name("otherClasses").beginObject()
                .field("classes", c.restClasses())
                .field("instances", c.rest().instances())
                .field("bytes", c.rest().bytes())
                .endObject();
        return json.endObject().toString();
    }
}
