package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.HumanUnits;

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
     * The page data as JSON: title, subtitles, warnings, and the two trees ({@code alloc}: estimated
     * bytes allocated, {@code live}: estimated bytes alive now).
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
        data.name("alloc");
        FlameTree.of("all allocations", profile.sites(), AllocationSite::estimatedBytes).writeJson(data);
        data.name("live");
        FlameTree.of("proven live objects", profile.sites(), s -> s.live().proven().bytes().value()).writeJson(data);
        data.endObject();
        return data.toString();
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
