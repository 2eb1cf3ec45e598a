package io.heaptap.profile.leak;

import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassGrowth;
import io.heaptap.profile.census.HeapAccount;
import io.heaptap.profile.census.TimeToOom;
import io.heaptap.profile.format.JsonOutput;

/** The whole-heap part of the leak report as JSON ({@link HeapSection}; docs/schema/leaks.schema.json, "heap"). */
final class LeakHeapJson {
    /** Classes listed by what the sites leave unexplained; the others are summed into {@code otherClasses}. */
    static final int CLASSES = 20;
    /** Every field but the count and the refusal: null until a census was taken. */
    private static final String[] NULL_BEFORE_CENSUS = {"atMillis", "censusPauseMillis", "heapAfterGcBytes", "maxHeapBytes", "censusBytes",
            "censusInstances", "classesFirst", "classesLast", "estimatedSampledBytes", "unexplainedBytes", "accountedBytes", "accountedShare", "notLiveBytes", "heaptapSamplesBytes", "classes", "otherClasses",
            "classGrowth", "timeToOom", "heapAfterGc"};

    private LeakHeapJson() {
    }

    static void write(JsonOutput json, HeapSection h) {
        json.name("heap");
        if (h == null) {
            json.value((String) null);
            return;
        }
        json.beginObject().field("censuses", h.censuses()).field("refusal", h.refusal());
        ClassCensus last = h.last();
        HeapAccount a = h.account();
        if (last == null) {
            for (String field : NULL_BEFORE_CENSUS) {
                json.field(field, null);
            }
            json.endObject();
            return;
        }
        json.field("atMillis", last.atMillis())
                .field("censusPauseMillis", last.pauseMillis())
                .field("heapAfterGcBytes", a.heapAfterGcBytes())
                .field("maxHeapBytes", last.maxHeapBytes())
                .field("censusBytes", last.totalBytes())
                .field("censusInstances", last.totalInstances())
                .field("classesFirst", h.first().classCount())
                .field("classesLast", last.classCount())
                .field("estimatedSampledBytes", a.sampledBytes())
                .field("unexplainedBytes", a.unexplainedBytes())
                .field("accountedBytes", a.accountedBytes())
                .field("accountedShare", a.accountedShare())
                .field("notLiveBytes", a.notLiveWorthSaying() ? a.notLiveBytes() : 0)
                .field("heaptapSamplesBytes", h.heaptapSamplesBytes());
        json.name("classes").beginArray();
        double otherUnexplained = a.restUnexplainedBytes();
        long otherBytes = last.rest().bytes();
        long otherInstances = last.rest().instances();
        int otherClasses = a.restClasses();
        for (int i = 0; i < a.classes().size(); i++) {
            HeapAccount.Unexplained u = a.classes().get(i);
            if (i >= CLASSES) {
                otherUnexplained += u.unexplainedBytes();
                otherBytes += u.censusBytes();
                otherInstances += u.instances();
                otherClasses++;
                continue;
            }
            json.beginObject().field("name", u.name()).field("instances", u.instances()).field("bytes", u.censusBytes())
                    .field("estimatedSampledBytes", u.sampledBytes()).field("unexplainedBytes", u.unexplainedBytes()).endObject();
        }
        json.endArray();
        json.name("otherClasses").beginObject().field("classes", otherClasses).field("instances", otherInstances)
                .field("bytes", otherBytes).field("unexplainedBytes", otherUnexplained).endObject();
        json.name("classGrowth").beginArray();
        for (ClassGrowth g : h.growth()) {
            json.beginObject().field("name", g.name()).field("bytesBefore", g.bytesBefore()).field("bytesAfter", g.bytesAfter())
                    .field("instancesGrowth", g.instancesGrowth()).field("minutes", g.minutes()).field("bytesPerMinute", g.bytesPerMinute());
            json.name("sites").beginArray();
            for (ClassGrowth.SiteShare s : g.sites()) {
                json.beginObject().field("allocatedAt", s.allocatedAt()).field("share", s.share()).field("shareLow", s.shareLow())
                        .field("shareHigh", s.shareHigh()).field("estimatedBytesPerMinute", s.bytesPerMinute())
                        .field("estimatedBytesPerMinuteLow", s.bytesPerMinuteLow())
                        .field("estimatedBytesPerMinuteHigh", s.bytesPerMinuteHigh()).endObject();
            }
            json.endArray().endObject();
        }
        json.endArray();
        timeToOom(json, h.timeToOom());
        json.name("heapAfterGc").beginArray();
        for (TimeToOom.Point p : h.heapAfterGc()) {
            json.beginObject().field("atMillis", p.atMillis()).field("bytes", p.heapBytes()).field("liveBytes", p.liveBytes())
                    .field("compacted", p.compacted()).endObject();
        }
        json.endArray().endObject();
    }

    static void timeToOom(JsonOutput json, TimeToOom t) {
        json.name("timeToOom");
        if (t == null) {
            json.value((String) null);
            return;
        }
        json.beginObject().field("points", t.points()).field("reading", t.reading().key()).field("trend", t.trend())
                .field("heapBytesPerMinute", t.bytesPerMinute())
                .field("heapBytesPerMinuteLow", t.bytesPerMinuteLow()).field("heapBytesPerMinuteHigh", t.bytesPerMinuteHigh())
                .field("heapBytes", t.heapBytes()).field("maxHeapBytes", t.maxHeapBytes())
                .field("millis", t.millis()).field("millisLow", t.millisLow()).field("millisHigh", t.millisHigh())
                .field("deadWoodShare", t.slack().deadWoodShare()).field("reserveShare", t.slack().reserveShare()).endObject();
    }
}
