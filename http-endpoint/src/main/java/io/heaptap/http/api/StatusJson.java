package io.heaptap.http.api;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.format.JsonOutput;
import io.heaptap.profile.format.JsonWriter;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.OtlpPushStatus;
import io.heaptap.session.ProfileFigures;
import io.heaptap.session.SessionStatus;
import io.heaptap.session.StatusReport;

import io.netty.util.internal.PlatformDependent;

/**
 * The body of {@code GET /api/status} (and of start / stop / reset, which answer with the new status):
 * one {@link StatusReport} in JSON. Every figure is the report's; this class only writes it (null for
 * none), so the MXBean and this page cannot disagree.
 */
public final class StatusJson {
    private StatusJson() {
    }

    public static String of(StatusReport report) {
        SessionStatus s = report.session();
        ProfileFigures recent = report.profile().orNull();
        JsonOutput json = new JsonOutput().beginObject()
                .field("state", report.state())
                .field("startedBy", s.startedBy())
                .field("startedAt", s.startedAt() == null ? null : s.startedAt().toString())
                .field("endsAt", s.endsAt() == null ? null : s.endsAt().toString())
                .field("timeLeftMillis", s.timeLeftMillis())
                .field("continuous", s.continuous().isEmpty() ? null : s.continuous());
        // The OTLP push's figures for scripts (the continuous line says the same in words); null when none runs.
        OtlpPushStatus push = report.otlpPush();
        json.name("otlpPush");
        if (push == null) {
            json.value((String) null);
        } else {
            json.beginObject()
                    .field("endpoint", push.options().endpoint().toString())
                    .field("everyMillis", push.options().every().toMillis())
                    .field("sent", push.sent())
                    .field("failed", push.failed())
                    .field("notSent", push.notSent())
                    .field("bytesSent", push.bytesSent())
                    .field("lastSentAt", push.lastSentAt() == null ? null : push.lastSentAt().toString())
                    .field("lastError", push.lastError().isEmpty() ? null : push.lastError())
                    .endObject();
        }
        json.name("options");
        CaptureOptions o = s.options();
        if (o == null) {
            json.value((String) null);
        } else {
            json.beginObject()
                    .field("duration", HumanUnits.formatDuration(o.duration()))
                    .field("durationMillis", o.duration().toMillis())
                    .field("intervalBytes", o.intervalBytes())
                    .field("sampleRate", o.sampleRate())
                    .field("stackDepth", o.stackDepth())
                    .field("maxStacks", o.maxStacks())
                    .field("live", o.live())
                    .field("liveBudget", report.liveBudget())
                    .endObject();
        }
        json.field("samples", s.samples());
        // The interval in force now and the range the capture ran at (they move under a sample-rate target).
        json.field("intervalBytes", s.intervalBytes())
                .field("intervalMinBytes", s.intervals() == null ? 0 : s.intervals().minBytes())
                .field("intervalMaxBytes", s.intervals() == null ? 0 : s.intervals().maxBytes());
        // What the capture's sampling cost the application so far (the sample callback against the process's CPU).
        if (s.samplingCost() == null) {
            json.name("samplingCost").value((String) null);
        } else {
            JsonWriter.samplingCost(json, s.samplingCost());
        }
        String unavailable = report.profile().error();
        if (!unavailable.isEmpty()) {
            json.field("profileUnavailable", unavailable);  // the status still answers; the profile's figures say why they are missing
        }
        json.field("estimatedAllocatedBytes", recent == null ? 0 : recent.allocated().estimatedBytes())
                .field("estimatedLiveBytes", recent == null ? 0 : recent.live().proven().bytes().value())
                .field("trackedObjects", recent == null ? 0 : recent.liveInfo().tracked());
        // The live set in its parts (proven, not yet examined), with intervals and the markings behind the proof.
        json.name("live");
        if (recent == null) {
            json.value((String) null);
        } else {
            AllocationProfile.LiveTotals live = recent.live();
            json.beginObject();
            JsonWriter.parts(json, live.proven(), live.unexamined(), live.heldUnexamined());
            JsonWriter.markings(json, recent.liveInfo().markings());
            json.field("heapUsedBytes", recent.liveInfo().heapUsedBytes()).field("heapMaxBytes", recent.liveInfo().heapMaxBytes());
            json.name("summary").beginArray();
            recent.liveSummary().forEach(json::value);
            json.endArray();
            json.name("impossibleFigures").beginArray();
            recent.impossibleFigures().forEach(json::value);
            json.endArray().endObject();
        }
        // heaptap's share of the heap: what requests hold now, the part waiting delta scrapes keep, the most ever held.
        StatusReport.Budget budget = report.heapBudget();
        json.name("heapBudget").beginObject()
                .field("bytes", budget.bytes())
                .field("inUseBytes", budget.inUseBytes())
                .field("keptBytes", budget.keptBytes())
                .field("deltaScrapesWaiting", budget.deltaScrapesWaiting())
                .field("peakBytes", budget.peakBytes())
                .endObject();
        json.field("nativeMemoryBytes", s.nativeMemory())
                .field("weakRefs", report.weakRefs())
                .field("nativeAgentError", s.nativeError())
                .field("pid", report.pid())
                .field("agentVersion", report.agentVersion())
                .field("url", report.httpUrl().isEmpty() ? null : report.httpUrl())
                .field("leakWatchState", report.leakWatchState())
                // The last leak watch's projection, one line with its interval ("" without a census: leaks --gc).
                .field("timeToOom", report.timeToOom())
                // The endpoint's own figure, which only it can count: the network buffers Netty allocated itself outside
                // the heap (-1 when it leaves that to the JDK, whose BufferPool MXBean then counts it).
                .field("httpDirectMemoryBytes", PlatformDependent.usedDirectMemory());
        if (s.gc() == null) {
            json.name("gc").value((String) null);
            json.name("gcSummary").beginArray().endArray();
        } else {
            // The same gc object as the JSON dump, and the report's lines for the web page: the warning first.
            JsonWriter.writeGc(json, s.gc(), report.allocationRate());
            json.name("gcSummary").beginArray();
            report.gcAlarm().ifPresent(json::value);
            report.gcHeader().ifPresent(json::value);
            report.gcLines().forEach(json::value);
            json.endArray();
        }
        return json.endObject().toString();
    }
}
