package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.ApplicationFrame;
import io.heaptap.profile.Estimate;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.SamplingCost;
import io.heaptap.profile.TopSites;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassCount;
import io.heaptap.profile.census.DumpCensus;
import io.heaptap.profile.census.DumpCensusText;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/**
 * What a flame graph page is made of: d3 (from its Maven Central WebJar), heaptap's renderer, and
 * the profile's data. The HTML dump inlines all three; the HTTP endpoint's web page serves them
 * as separate resources. One renderer, one data shape, for both.
 */
public final class FlameGraphAssets {
    /** Rows of the page's tables: what a person reads beside the flame graph. */
    static final int TOP_SITES = 30;

    private FlameGraphAssets() {
    }

    /** d3's minified script. */
    public static String d3() {
        Properties webjars = new Properties();
        try (InputStream in = FlameGraphAssets.class.getResourceAsStream("webjars.properties")) {
            webjars.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("heaptap.jar is incomplete: webjars.properties is missing", e);
        }
        return classpathResource(webjars.getProperty("d3"));
    }

    /** heaptap's renderer: defines {@code heaptapFlameGraph(svg, details)}. */
    public static String renderer() {
        return classpathResource("io/heaptap/profile/format/flamegraph.js");
    }

    static String pageTemplate() {
        return classpathResource("io/heaptap/profile/format/flamegraph.html");
    }

    /**
     * The page data as JSON: title, subtitles, warnings, GC and sampling cost, the top sites by
     * allocated and by proven live bytes ({@code top}, {@code liveTop}), and the two trees
     * ({@code alloc}: estimated bytes allocated, {@code live}: estimated bytes proven alive now).
     */
    public static String data(AllocationProfile profile) {
        CaptureInfo info = profile.info();
        JsonOutput data = new JsonOutput().beginObject();
        data.field("title", String.format(Locale.ROOT, "heaptap: allocations of pid %d", info.target().pid()));
        data.field("subtitle", String.format(Locale.ROOT, "%s %s; %s at interval %s; %,d samples (%,.0f/s); estimated %s allocated",
                info.target().vmName(), info.target().javaVersion(),
                HumanUnits.formatDuration(Duration.ofNanos(info.durationNanos())),
                info.intervals().describe(), info.samples(), info.samplesPerSecond(),
                HumanUnits.formatBytes(profile.totals().estimatedBytes())));
        data.name("warnings").beginArray();
        info.warnings().forEach(data::value);
        data.endArray();
        data.field("dropped", TextReport.describe(info.drops()));
        data.field("gcHeader", GcText.header(info.gc()));
        data.field("gcAlarm", info.gc().alarm().orElse(null));
        data.name("gc").beginArray();
        GcText.lines(info.gc(), profile.allocationRate()).forEach(data::value);
        data.endArray();
        data.field("liveSubtitle", String.format(Locale.ROOT, "proven live now: %s (still referenced after a whole-heap marking);"
                        + " not yet examined, not shown: %s; from %,d tracked objects%s",
                HumanUnits.formatBytes(profile.liveTotals().proven().bytes()),
                HumanUnits.formatBytes(profile.liveTotals().unexamined().bytes()), profile.liveInfo().tracked(),
                profile.liveInfo().filter().isNone() ? "" : " (only objects " + TextReport.describe(profile.liveInfo().filter()) + ")"));
        data.field("samplingCost", info.samplingCost() == SamplingCost.UNKNOWN ? null : info.samplingCost().describe());
        data.field("samplesLine", String.format(Locale.ROOT, "from %,d samples over %s at interval %s",
                info.samples(), HumanUnits.formatDuration(Duration.ofNanos(info.durationNanos())), info.intervals().describe()));
        data.field("allocatedTotal", HumanUnits.formatBytes(profile.totals().bytes()));
        data.field("liveTotal", HumanUnits.formatBytes(profile.liveTotals().proven().bytes()));
        data.field("unexaminedTotal", HumanUnits.formatBytes(profile.liveTotals().unexamined().bytes().value()));
        data.name("top").beginArray();
        for (TopSites.Row row : TopSites.byAllocatedBytes(profile, TOP_SITES)) {
            writeSite(data, row);
        }
        data.endArray();
        data.name("liveTop").beginArray();
        for (TopSites.Row row : TopSites.byLiveBytes(profile, TOP_SITES)) {
            if (row.site().live().proven().bytes().value() > 0) {
                writeSite(data, row);
            }
        }
        data.endArray();
        writeCensus(data, profile.census());
        data.name("alloc");
        FlameTree.of("all allocations", profile.sites(), AllocationSite::estimatedBytes).writeJson(data);
        data.name("live");
        FlameTree.of("proven live objects", profile.sites(), s -> s.live().proven().bytes().value()).writeJson(data);
        data.endObject();
        return data.toString();
    }

    /**
     * The whole heap after a dump's forced collection ({@code --gc}): the census's heading and summary as
     * the text report words them, and its rows as figures for the page's table; null without a census.
     */
    private static void writeCensus(JsonOutput data, DumpCensus dc) {
        data.name("census");
        if (dc == null) {
            data.value((String) null);
            return;
        }
        data.beginObject().name("lines").beginArray();
        DumpCensusText.heading(dc).forEach(line -> data.value(line.strip()));
        data.endArray().name("classes").beginArray();
        if (dc.taken()) {
            ClassCensus c = dc.census();
            c.top().forEach(row -> writeClass(data, row.name(), row, c.totalBytes()));
            if (c.restClasses() > 0) {
                writeClass(data, "(" + c.restClasses() + " other classes)", c.rest(), c.totalBytes());
            }
        }
        data.endArray().field("taken", dc.taken()).endObject();
    }

    private static void writeClass(JsonOutput data, String name, ClassCount row, long totalBytes) {
        data.beginObject()
                .field("name", name)
                .field("bytes", row.bytes())
                .field("percent", totalBytes > 0 ? 100.0 * row.bytes() / totalBytes : 0)
                .field("instances", row.instances())
                .endObject();
    }

    /**
     * One row of the page's table: the figures a person compares (estimates with their 95% intervals,
     * the samples behind them), and the frame to highlight in the flame graph.
     */
    private static void writeSite(JsonOutput data, TopSites.Row row) {
        AllocationSite s = row.site();
        Estimate bytes = s.allocatedBytes();
        Estimate live = s.live().proven().bytes();
        data.beginObject()
                .field("rank", row.rank())
                .field("type", s.type())
                .field("at", s.allocatedAt())
                .field("frame", s.stack().isEmpty() ? s.type() : ApplicationFrame.of(s.stack()).functionName())
                .field("bytes", bytes.value())
                .field("bytesLow", bytes.lower())
                .field("bytesHigh", bytes.upper())
                .field("percent", row.percent())
                .field("objects", s.estimatedObjects())
                .field("samples", s.samples())
                .field("live", live.value())
                .field("liveLow", live.lower())
                .field("liveHigh", live.upper())
                .field("unexamined", row.unexaminedBytes())
                .endObject();
    }

    private static String classpathResource(String path) {
        ClassLoader loader = FlameGraphAssets.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("heaptap.jar is incomplete: " + path + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
