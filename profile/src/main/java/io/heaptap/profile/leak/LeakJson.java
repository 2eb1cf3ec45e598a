package io.heaptap.profile.leak;

import io.heaptap.profile.Frame;
import io.heaptap.profile.format.JsonOutput;

/** The leak ranking as JSON (schema: docs/schema/leaks.schema.json, checked by JsonSchemaTest). Field names say estimate or count. */
public final class LeakJson {
    public static final int VERSION = 2;

    private LeakJson() {
    }

    public static String of(LeakReport report, int rows) {
        JsonOutput json = new JsonOutput().beginObject().field("version", VERSION);
        LeakWatchInfo w = report.watch();
        json.name("watch").beginObject()
                .field("pid", w.pid())
                .field("startedAt", w.startedAt().toString())
                .field("durationMillis", w.durationMillis())
                .field("everyMillis", w.everyMillis())
                .field("elapsedMillis", w.elapsedMillis())
                .field("intervalBytes", w.intervalBytes())
                .field("state", w.state())
                .field("endReason", w.endReason())
                .field("snapshots", w.snapshots())
                .field("gcs", w.gcs())
                .field("markings", w.markings())
                .field("lastMarkingAt", w.lastMarkingAt() == null ? null : w.lastMarkingAt().toString())
                .field("markingLimitation", w.markingLimitation())
                .field("gcForced", w.gcForced())
                .field("maxPauseMillis", w.maxPauseMillis())
                .field("sitesFollowed", report.sites().size())
                .field("sitesLeftOut", w.sitesLeftOut())
                .field("leakSuspects", report.suspects());
        HistoryFootprint h = w.history();
        json.name("history").beginObject()
                .field("bytes", h.bytes())
                .field("boundBytes", h.boundBytes())
                .field("sites", h.sites())
                .field("maxSites", h.maxSites())
                .field("pointsPerSite", h.pointsPerSite())
                .endObject();
        json.name("pausesMillis").beginArray();
        w.pausesMillis().forEach(json::value);
        json.endArray();
        json.name("warnings").beginArray();
        w.warnings().forEach(json::value);
        json.endArray().endObject();
        LeakHeapJson.write(json, report.heap());
        json.name("sites").beginArray();
        for (LeakReport.RankedSite s : report.top(rows)) {
            site(json, s);
        }
        return json.endArray().endObject().toString();
    }

    static void site(JsonOutput json, LeakReport.RankedSite s) {
        LeakEvidence e = s.evidence();
        json.beginObject()
                .field("rank", s.rank())
                .field("verdict", e.verdict().label())
                .field("confidence", e.confidence())
                .field("score", e.score())
                .field("type", e.site().type())
                .field("allocatedAt", e.site().allocatedAt());
        json.name("stack").beginArray();
        for (Frame f : e.site().stack()) {
            json.value(f.displayName());
        }
        json.endArray()
                .field("truncated", e.site().truncated())
                .field("snapshots", e.points())
                .field("provenSnapshots", e.provenPoints())
                .field("windowMillis", e.windowMillis())
                .field("trackedObjects", e.tracked())
                .field("estimatedLiveBytes", e.liveBytes())
                .field("estimatedLiveBytesLow", e.liveBytesLow())
                .field("estimatedLiveBytesHigh", e.liveBytesHigh())
                .field("estimatedLiveObjects", e.liveObjects())
                .field("estimatedUnexaminedBytes", e.unexaminedBytes())
                .field("liveBytesPerMinute", e.bytesPerMinute())
                .field("liveObjectsPerMinute", e.objectsPerMinute())
                .field("growth", e.growth())
                .field("risingProbability", e.risingProbability())
                .field("medianAgeMillis", e.medianAgeMillis())
                .field("maxAgeMillis", e.maxAgeMillis())
                .field("ageCoverage", e.ageCoverage())
                .field("medianGcsSurvived", e.medianGcs())
                .field("gcsInWindow", e.gcs())
                .field("markingsInWindow", e.markings())
                .field("estimatedAllocatedBytes", e.allocatedBytes())
                .field("retained", e.retained())
                .field("reason", e.reason());
        json.name("series").beginArray();
        for (SitePoint p : s.points()) {
            json.beginObject()
                    .field("atMillis", p.atMillis())
                    .field("trackedObjects", p.tracked())
                    .field("estimatedLiveBytes", p.liveBytes())
                    .field("estimatedLiveBytesLow", p.live().lower())
                    .field("estimatedLiveBytesHigh", p.live().upper())
                    .field("estimatedLiveObjects", p.liveObjects())
                    .field("estimatedUnexaminedBytes", p.unexaminedBytes())
                    .field("markings", p.markings())
                    .field("medianAgeMillis", p.medianAgeMillis())
                    .field("maxAgeMillis", p.maxAgeMillis())
                    .field("medianGcsSurvived", p.medianGcs())
                    .field("estimatedAllocatedBytes", p.allocatedBytes())
                    .endObject();
        }
        json.endArray().endObject();
    }
}
