package io.heaptap.http.api;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.TopSites;
import io.heaptap.profile.format.JsonOutput;

/**
 * The body of {@code GET /api/top}: the top sites by estimated allocated bytes ({@code kind=alloc})
 * or by estimated proven live bytes now ({@code kind=live}: still referenced after a whole-heap marking;
 * {@code unexaminedBytes} is what no marking has examined yet). Estimates carry their 95% interval
 * ({@code ...Low}, {@code ...High}); estimates and counts are named as such.
 */
final class TopJson {
    private TopJson() {
    }

    static String of(AllocationProfile profile, String kind, int n, String state) {
        JsonOutput json = new JsonOutput().beginObject().field("kind", kind).field("state", state);
        json.name("rows").beginArray();
        if (profile != null) {
            if (kind.equals("alloc")) {
                allocRows(json, profile, n);
            } else {
                liveRows(json, profile, n);
            }
        }
        return json.endArray().endObject().toString();
    }

    private static void allocRows(JsonOutput json, AllocationProfile profile, int n) {
        for (TopSites.Row row : TopSites.byAllocatedBytes(profile, n)) {
            AllocationSite s = row.site();
            json.beginObject()
                    .field("rank", row.rank())
                    .field("type", s.type())
                    .field("frame", s.allocatedAt())
                    .field("estimatedBytes", s.estimatedBytes())
                    .field("estimatedBytesLow", s.allocatedBytes().lower())
                    .field("estimatedBytesHigh", s.allocatedBytes().upper())
                    .field("percent", row.percent())
                    .field("estimatedObjects", s.estimatedObjects())
                    .field("samples", s.samples())
                    .endObject();
        }
    }

    private static void liveRows(JsonOutput json, AllocationProfile profile, int n) {
        for (TopSites.Row row : TopSites.byLiveBytes(profile, n)) {
            AllocationSite s = row.site();
            LiveStats l = s.live();
            json.beginObject()
                    .field("rank", row.rank())
                    .field("type", s.type())
                    .field("frame", s.allocatedAt())
                    .field("estimatedBytes", l.proven().bytes().value())
                    .field("estimatedBytesLow", l.proven().bytes().lower())
                    .field("estimatedBytesHigh", l.proven().bytes().upper())
                    .field("estimatedObjects", l.proven().objects().value())
                    .field("unexaminedBytes", row.unexaminedBytes())
                    .field("impossible", profile.isImpossible(l))
                    .field("trackedObjects", l.tracked())
                    .field("medianAgeMillis", l.medianAge().toMillis())
                    .field("maxAgeMillis", l.maxAge().toMillis())
                    .field("medianGcs", l.medianGcs())
                    .endObject();
        }
    }
}
