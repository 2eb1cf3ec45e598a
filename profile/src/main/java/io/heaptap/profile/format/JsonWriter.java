package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationProfile.LiveTotals;
import io.heaptap.profile.AllocationProfile.Totals;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;
import io.heaptap.profile.HeapSizing;
import io.heaptap.profile.LiveHold;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.Estimate;
import io.heaptap.profile.Markings;
import io.heaptap.profile.SamplingCost;

import io.heaptap.profile.census.DumpCensusJson;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The JSON document for scripts; its schema is docs/schema/profile.schema.json (checked by JsonSchemaTest) and its
 * field names are stable. Every figure says in its name whether it is a raw count
 * ({@code samples}) or an estimate ({@code estimated*}).
 */
public final class JsonWriter implements ProfileWriter {
    static final int SCHEMA_VERSION = 3;

    @Override
    public void write(AllocationProfile profile, OutputStream out) throws IOException {
        out.write(toJson(profile).getBytes(StandardCharsets.UTF_8));
    }

    static String toJson(AllocationProfile profile) {
        CaptureInfo info = profile.info();
        JsonOutput j = new JsonOutput().beginObject();
        j.field("schema", "heaptap-profile").field("version", SCHEMA_VERSION);

        j.name("target").beginObject()
                .field("pid", info.target().pid())
                .field("javaVersion", info.target().javaVersion())
                .field("vmName", info.target().vmName())
                .field("command", info.target().mainCommand())
                .endObject();

        j.name("capture").beginObject()
                .field("startedAt", info.startedAt().toString())
                .field("durationMillis", info.durationNanos() / 1_000_000)
                .field("intervalBytes", info.intervalBytes())
                .field("intervalMinBytes", info.intervals().minBytes())
                .field("intervalMaxBytes", info.intervals().maxBytes())
                .field("sampleRateTarget", info.intervals().targetRate())
                .field("stackDepth", info.stackDepth())
                .field("samples", info.samples())
                .field("samplesPerSecond", Math.round(info.samplesPerSecond()));
        samplingCost(j, info.samplingCost());
        Drops d = info.drops();
        j.name("drops").beginObject()
                .field("samplesDropped", d.samplesDropped())
                .field("samplesWithoutStack", d.samplesWithoutStack())
                .field("samplesStackError", d.samplesStackError())
                .field("samplesTruncated", d.samplesTruncated())
                .field("samplesAfterDeadline", d.samplesAfterDeadline())
                .field("classesDropped", d.classesDropped())
                .field("methodsUnresolved", d.methodsUnresolved())
                .endObject();
        j.name("warnings").beginArray();
        info.warnings().forEach(j::value);
        j.endArray().endObject();
        writeGc(j, info.gc(), profile.allocationRate());

        Totals total = profile.totals();
        j.name("totals").beginObject()
                .field("samples", total.samples())
                .field("estimatedObjects", total.estimatedObjects())
                .field("estimatedBytes", total.estimatedBytes());
        interval(j, "estimatedBytes", total.bytes());
        j.endObject();

        LiveInfo live = profile.liveInfo();
        LiveTotals liveTotal = profile.liveTotals();
        j.name("live").beginObject()
                .field("enabled", live.enabled())
                .field("budget", live.budget())
                .field("tracked", live.tracked())
                .field("keepProbability", live.keepProbability())
                .field("admitted", live.admitted())
                .field("skipped", live.skipped())
                .field("thinnings", live.thinnings())
                .field("thinnedEntries", live.thinnedEntries())
                .field("died", live.died())
                .field("weakRefs", live.weakRefs())
                .field("gcCount", live.gcCount())
                .field("minAgeMillis", live.filter().minAge().toMillis())
                .field("minGcs", live.filter().minGcs())
                .field("gcForced", live.gcForced())
                .field("heapUsedBytes", live.heapUsedBytes())
                .field("heapMaxBytes", live.heapMaxBytes());
        markings(j, live.markings());
        hold(j, live.hold(), live.tracked());
        parts(j, liveTotal.proven(), liveTotal.unexamined(), liveTotal.heldUnexamined());
        j.name("impossibleFigures").beginArray();
        profile.impossibleFigures().forEach(j::value);
        j.endArray().endObject();

        j.name("sites").beginArray();
        List<AllocationSite> sites = new ArrayList<>(profile.sites());
        sites.sort(Comparator.comparingDouble(AllocationSite::estimatedBytes)
                .thenComparingDouble(site -> site.live().estimatedBytes()).reversed());
        for (AllocationSite s : sites) {
            j.beginObject()
                    .field("type", s.type())
                    .field("samples", s.samples())
                    .field("estimatedObjects", s.estimatedObjects())
                    .field("estimatedBytes", s.estimatedBytes());
            interval(j, "estimatedBytes", s.allocatedBytes());
            j.field("truncated", s.truncated());
            j.name("live");
            if (s.live().isEmpty()) {
                j.value((String) null);
            } else {
                LiveStats l = s.live();
                j.beginObject().field("tracked", l.tracked());
                parts(j, l.proven(), l.unexamined(), l.heldUnexamined());
                j.field("impossible", profile.isImpossible(l))
                        .field("minAgeMillis", l.minAge().toMillis())
                        .field("medianAgeMillis", l.medianAge().toMillis())
                        .field("maxAgeMillis", l.maxAge().toMillis())
                        .field("minGcs", l.minGcs())
                        .field("medianGcs", l.medianGcs())
                        .field("maxGcs", l.maxGcs())
                        .field("provenMaxAgeMillis", l.provenMaxAge().toMillis());
                letGo(j, l.letGo());
                j.endObject();
            }
            j.name("stack").beginArray();
            for (Frame f : s.stack()) {
                j.beginObject()
                        .field("class", f.className())
                        .field("method", f.methodName())
                        .field("file", f.sourceFile())
                        .field("line", f.line())
                        .endObject();
            }
            j.endArray().endObject();
        }
        j.endArray();

        j.name("types").beginArray();
        for (Totals t : profile.typesByBytes()) {
            j.beginObject()
                    .field("type", t.name())
                    .field("samples", t.samples())
                    .field("estimatedObjects", t.estimatedObjects())
                    .field("estimatedBytes", t.estimatedBytes())
                    .endObject();
        }
        j.endArray();

        j.name("liveTypes").beginArray();
        for (LiveTotals t : profile.typesByLiveBytes()) {
            j.beginObject()
                    .field("type", t.name())
                    .field("tracked", t.tracked());
            parts(j, t.proven(), t.unexamined(), t.heldUnexamined());
            j.endObject();
        }
        j.endArray();

        // Only a dump with a forced collection takes a census (null otherwise): bounded to DumpCensus.TOP rows and the rest.
        j.name("census");
        DumpCensusJson.write(j, profile.census());
        return j.endObject().toString();
    }

    /**
     * {@code letGo}: what live tracking's bound let go of a site, which the proven part's upper ends count (null when
     * nothing): the weight one more tracked object would have carried ({@code unit*}), and the estimated objects and
     * bytes a critical heap released ({@code released*}).
     */
    private static void letGo(JsonOutput j, LiveStats.LetGo g) {
        j.name("letGo");
        if (!g.any()) {
            j.value((String) null);
            return;
        }
        j.beginObject()
                .field("unitObjects", g.unitObjects())
                .field("unitBytes", g.unitBytes())
                .field("releasedObjects", g.releasedObjects().value())
                .field("releasedBytes", g.releasedBytes().value())
                .endObject();
    }

    /** {@code nameLow} and {@code nameHigh}: the 95% interval of an estimate. */
    public static void interval(JsonOutput j, String name, Estimate e) {
        j.field(name + "Low", e.lower()).field(name + "High", e.upper());
    }

    /**
     * The live set in its parts: {@code proven} (still referenced after a whole-heap marking that began
     * after allocation), {@code unexamined} (allocated since: may be garbage) and {@code heldUnexamined}
     * (large objects not yet examined, not upscaled: counts and their own bytes).
     */
    public static void parts(JsonOutput j, LiveStats.Part proven, LiveStats.Part unexamined, LiveStats.Part large) {
        part(j, "proven", proven);
        part(j, "unexamined", unexamined);
        j.name("heldUnexamined").beginObject()
                .field("tracked", large.tracked())
                .field("bytes", large.bytes().value())
                .endObject();
    }

    private static void part(JsonOutput j, String name, LiveStats.Part p) {
        j.name(name).beginObject()
                .field("tracked", p.tracked())
                .field("estimatedObjects", p.objects().value());
        interval(j, "estimatedObjects", p.objects());
        j.field("estimatedBytes", p.bytes().value());
        interval(j, "estimatedBytes", p.bytes());
        j.endObject();
    }

    /** The {@code markings} object: the liveness-proof clock behind a live view. */
    /** The {@code hold} object: what live tracking holds back of the heap, and its bound ({@link LiveHold}). */
    public static void hold(JsonOutput j, LiveHold h, long tracked) {
        j.name("hold").beginObject()
                .field("byteBudget", h.byteBudget())
                .field("share", h.share())
                .field("strict", h.strict())
                .field("collector", h.collector())
                .field("unexaminedBytes", h.unexaminedBytes())
                .field("trackedBytes", h.trackedBytes())
                .field("byteThinnings", h.byteThinnings())
                .field("byteThinnedEntries", h.byteThinnedEntries())
                .field("oversize", h.oversize())
                .field("releases", h.releases())
                .field("releasedEntries", h.releasedEntries())
                .field("byteLevel", h.byteLevel())
                .field("tooThin", h.tooThin(tracked))
                .endObject();
    }

    public static void markings(JsonOutput j, Markings m) {
        j.name("markings").beginObject()
                .field("completed", m.completed())
                .field("inCapture", m.inWindow())
                .field("forced", m.forced())
                .field("lastCompletedAt", m.lastCompletedAt() == null ? null : m.lastCompletedAt().toString())
                .field("limitation", m.limitation())
                .field("horizonMillis", m.horizonMillis())
                .endObject();
    }

    /** The {@code samplingCost} object: what heaptap's sampling cost the application; also in {@code /api/status}. */
    public static void samplingCost(JsonOutput j, SamplingCost cost) {
        j.name("samplingCost").beginObject()
                .field("samples", cost.samples())
                .field("callbackNanos", cost.callbackNanos())
                .field("processCpuNanos", cost.processCpuNanos())
                .name("budgetShare").exactValue(cost.budgetShare())
                .field("jvmEvents", cost.jvmEvents())
                .field("jvmEventNanos", cost.jvmEventNanos())
                .endObject();
    }

    /** The {@code gc} object of the JSON schema; also in {@code /api/status}. */
    public static void writeGc(JsonOutput j, GcCost gc, double allocationRate) {
        HeapSizing h = gc.heap();
        HeapAroundGc around = gc.heapAround();
        GcCpu cpu = gc.cpu();
        j.name("gc").beginObject()
                .field("collector", gc.collector());
        j.name("heap").beginObject()
                .field("initialBytes", h.initialBytes())
                .field("usedBytes", h.usedBytes())
                .field("committedBytes", h.committedBytes())
                .field("maxBytes", h.maxBytes())
                .endObject();
        j.field("windowMillis", gc.windowNanos() / 1_000_000)
                .field("collections", gc.collections())
                .field("pauseMillis", gc.pauseMillis())
                .field("pauseShare", gc.pauseShare());
        j.name("collectors").beginArray();
        for (CollectorCost c : gc.collectors()) {
            j.beginObject()
                    .field("name", c.name())
                    .field("kind", c.kind().name().toLowerCase(Locale.ROOT))
                    .field("collections", c.collections())
                    .field("timeMillis", c.timeMillis())
                    .endObject();
        }
        j.endArray();
        j.name("heapAroundGc").beginObject()
                .field("collections", around.collections())
                .field("meanBeforeBytes", around.meanBeforeBytes())
                .field("meanAfterBytes", around.meanAfterBytes())
                .field("maxAfterBytes", around.maxAfterBytes())
                .field("concurrentCycles", gc.heapReadAroundCycles())
                .endObject();
        j.name("cpu").beginObject()
                .field("available", cpu.available())
                .field("unavailableReason", cpu.unavailableReason())
                .field("gcThreadNanos", cpu.gcThreadNanos())
                .field("processNanos", cpu.processNanos())
                .field("share", cpu.share())
                .field("gcCores", gc.gcCores())
                .field("gcThreads", cpu.gcThreads())
                .field("note", cpu.note());
        j.name("threadNames").beginArray();
        cpu.threadNames().forEach(j::value);
        j.endArray().endObject();
        j.field("estimatedAllocationRateBytesPerSecond", allocationRate)
                .field("alarm", gc.alarm().orElse(null))
                .endObject();
    }
}
