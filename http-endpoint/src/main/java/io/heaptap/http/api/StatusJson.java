package io.heaptap.http.api;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.format.GcText;
import io.heaptap.profile.format.JsonOutput;
import io.heaptap.profile.format.JsonWriter;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.session.CaptureOptions;
import io.heaptap.session.Controller;
import io.heaptap.session.HeapBudget;
import io.heaptap.session.HeapBudgetException;
import io.heaptap.session.OtlpPushStatus;
import io.heaptap.session.ProfileFigures;
import io.heaptap.session.SessionStatus;

import io.netty.util.internal.PlatformDependent;

import java.util.Locale;

/** The body of {@code GET /api/status} (and of start / stop / reset, which answer with the new status). */
final class StatusJson {
    private StatusJson() {
    }

    static String of(Controller controller, String version, String url) {
        SessionStatus s = controller.status();
        ProfileFigures recent = null;
        String unavailable = null;
        try {
            recent = controller.profileFigures();  // computed in the session, as for every door
        } catch (HeapBudgetException e) {
            unavailable = e.getMessage();  // the status still answers; the profile's figures say why they are missing
        }
        JsonOutput json = new JsonOutput().beginObject()
                .field("state", s.state().name().toLowerCase(Locale.ROOT))
                .field("startedBy", s.startedBy())
                .field("startedAt", s.startedAt() == null ? null : s.startedAt().toString())
                .field("endsAt", s.endsAt() == null ? null : s.endsAt().toString())
                .field("timeLeftMillis", s.timeLeftMillis())
                .field("continuous", s.continuous().isEmpty() ? null : s.continuous());
        // The OTLP push's figures for scripts (the continuous line says the same in words); null when none runs.
        OtlpPushStatus push = controller.otlpPush();
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
                    .field("liveBudget", o.live() ? o.liveBudget() : 0)
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
        if (unavailable != null) {
            json.field("profileUnavailable", unavailable);
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
        HeapBudget budget = controller.heapBudget();
        json.name("heapBudget").beginObject()
                .field("bytes", budget.bytes())
                .field("inUseBytes", budget.inUseBytes())
                .field("keptBytes", budget.keptBytes())
                .field("deltaScrapesWaiting", controller.deltaBaselinesOpen())
                .field("peakBytes", budget.peakBytes())
                .endObject();
        LeakReport leakReport = controller.leakReport();
        json.field("nativeMemoryBytes", s.nativeMemory())
                .field("weakRefs", controller.weakRefs())
                .field("nativeAgentError", s.nativeError())
                .field("pid", ProcessHandle.current().pid())
                .field("agentVersion", version)
                .field("url", url)
                .field("leakWatchState", controller.leakWatchState())
                // The last leak watch's projection, one line with its interval ("" without a census: leaks --gc).
                .field("timeToOom", leakReport == null ? "" : leakReport.timeToOom())
                // What the endpoint's network buffers hold outside the heap (Netty's count of the direct memory it
                // allocated itself; -1 when it leaves that to the JDK, whose BufferPool MXBean then counts it).
                .field("httpDirectMemoryBytes", PlatformDependent.usedDirectMemory());
        if (s.gc() == null) {
            json.name("gc").value((String) null);
            json.name("gcSummary").beginArray().endArray();
        } else {
            // The same gc object as the JSON dump, and the report's lines for the web page.
            double rate = recent == null ? 0 : recent.allocationRate();
            JsonWriter.writeGc(json, s.gc(), rate);
            json.name("gcSummary").beginArray();
            s.gc().alarm().ifPresent(json::value);
            json.value(GcText.header(s.gc()));
            GcText.lines(s.gc(), rate).forEach(json::value);
            json.endArray();
        }
        return json.endObject().toString();
    }
}
