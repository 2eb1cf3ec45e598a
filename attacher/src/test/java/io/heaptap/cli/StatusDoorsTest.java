package io.heaptap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.http.api.StatusJson;
import io.heaptap.jmx.HeaptapMXBean;
import io.heaptap.jmx.StatusRead;
import io.heaptap.jmx.StatusView;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.Markings;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.TrackedObject;
import io.heaptap.profile.format.JsonReader;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.FakeSession;
import io.heaptap.session.HeapBudgetException;
import io.heaptap.session.HttpServing;
import io.heaptap.session.ProfileFigures;
import io.heaptap.wire.options.ServeOptions;
import io.heaptap.session.SessionStatus;
import io.heaptap.session.StatusFixtures;
import io.heaptap.session.StatusReport;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One {@link StatusReport} rendered through every door: the MXBean's {@code Status} composite (through
 * the real MXBean mapping and a client's proxy), the CLI's {@code status} that prints it, and
 * {@code /api/status}. Every figure two doors both show must be the same figure; a door that computed
 * one of its own (another rounding, another part of the live set, another default) fails here.
 */
class StatusDoorsTest {
    @TempDir
    Path tmp;

    /** The composite's attribute alone, so the mapping runs without a Controller. */
    public interface StatusOnlyMXBean {
        StatusView getStatus();
    }

    private static final GcCost GC = StatusFixtures.gc(9_000);
    private static final SessionStatus STOPPED = StatusFixtures.stopped(GC);

    /** A profile whose figures all differ: proven, unexamined and held apart, bounds apart from the value, fractions. */
    private static ProfileFigures figures() {
        CaptureInfo info = new CaptureInfo(new TargetInfo(4242, "17", "vm", "app.Main"), Instant.parse("2026-11-21T10:00:00Z"),
                30_000_000_000L, 65_536, 64, 300, new Drops(4, 2, 1, 0, 0, 0, 0), List.of(), GC);
        LiveStats live = LiveStats.of(List.of(new TrackedObject(32, 1000, 32_000.7, Duration.ofSeconds(20).toNanos(), 9, true, false),
                new TrackedObject(48, 3, 144.2, Duration.ofSeconds(2).toNanos(), 0, false, false)));
        LiveInfo liveInfo = new LiveInfo(true, 4096, 2, 0.5, 10, 0, 1, 5, 8, 1, 12, LiveFilter.NONE, false,
                new Markings(3, 2, 0, Instant.parse("2026-11-21T10:00:20Z"), "", 3000), 40L << 20, 256L << 20);
        return ProfileFigures.of(new AllocationProfile(info, liveInfo, List.of(new AllocationSite(
                List.of(new Frame("app.Cache", "put", "Cache.java", 9)), false, "app.Entry", 300, 1_000.4, 64_000_123.6, 0, 0, live))),
                "capture");
    }

    private static StatusReport report(SessionStatus session, StatusReport.Profile profile) {
        return new StatusReport(session, profile, 4242, "1.2.3", "/tmp/heaptap-4242", "http://127.0.0.1:8080/", "/tmp/token",
                new StatusReport.Budget(8L << 20, 1L << 20, 0, 2L << 20, 0), 7, "watching", 3, "time to OOM: 9h 50m [9h 40m, 10h]",
                null);
    }

    /** The MXBean door: the composite as a JMX client's proxy rebuilds it. */
    private static StatusView jmx(StatusReport report) throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        ObjectName name = new ObjectName("test:type=Status");
        server.registerMBean((StatusOnlyMXBean) () -> StatusRead.composite(report), name);
        return JMX.newMXBeanProxy(server, name, StatusOnlyMXBean.class).getStatus();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> http(StatusReport report) {
        return (Map<String, Object>) JsonReader.parse(StatusJson.of(report));
    }

    /** The CLI door: {@code heaptap status} printing the composite it read. */
    private static String cli(StatusView status) {
        HeaptapMXBean bean = (HeaptapMXBean) Proxy.newProxyInstance(StatusDoorsTest.class.getClassLoader(),
                new Class<?>[] {HeaptapMXBean.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getStatus")) {
                        return status;
                    }
                    throw new AssertionError("status reads the composite alone, not " + method.getName());
                });
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            StatusCommand.print(4242, bean);
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static Object at(Map<String, Object> json, String path) {
        Object o = json;
        for (String key : path.split("\\.")) {
            o = ((Map<String, Object>) o).get(key);
        }
        return o instanceof JsonReader.Number n ? (n.text().matches("-?\\d+") ? (Object) n.asLong() : (Object) n.asDouble()) : o;
    }

    private static long whole(Object number) {
        return Math.round(((java.lang.Number) number).doubleValue());
    }

    private static String orEmpty(Object o) {
        return o == null ? "" : o.toString();
    }

    /** Every figure the MXBean and {@code /api/status} both show, pair by pair. */
    private static void sameFigures(StatusView v, Map<String, Object> j) {
        assertEquals(v.getState(), at(j, "state"));
        assertEquals(v.getStartedBy(), orEmpty(at(j, "startedBy")));
        assertEquals(v.getStartTime(), orEmpty(at(j, "startedAt")));
        assertEquals(v.getTimeLeftMillis(), at(j, "timeLeftMillis"));
        assertEquals(v.getContinuous(), orEmpty(at(j, "continuous")));
        assertEquals(v.getSamples(), at(j, "samples"));
        assertEquals(v.getSamplingIntervalBytes(), at(j, "intervalBytes"));
        if (at(j, "options") != null) {
            assertEquals((long) v.getStackDepth(), at(j, "options.stackDepth"));
            assertEquals(v.isLiveTracking(), at(j, "options.live"));
            assertEquals((long) v.getLiveBudget(), at(j, "options.liveBudget"));
        }
        assertEquals(v.getTrackedObjects(), at(j, "trackedObjects"));
        assertEquals(v.getEstimatedAllocatedBytes(), whole(at(j, "estimatedAllocatedBytes")));
        assertEquals(v.getEstimatedLiveBytes(), whole(at(j, "estimatedLiveBytes")));
        if (at(j, "live") != null) {
            assertEquals(v.getEstimatedLiveBytes(), whole(at(j, "live.proven.estimatedBytes")));
            assertEquals(v.getEstimatedLiveBytesLow(), whole(at(j, "live.proven.estimatedBytesLow")));
            assertEquals(v.getEstimatedLiveBytesHigh(), whole(at(j, "live.proven.estimatedBytesHigh")));
            assertEquals(v.getUnexaminedLiveBytes(), Math.round(((java.lang.Number) at(j, "live.unexamined.estimatedBytes")).doubleValue()
                    + ((java.lang.Number) at(j, "live.heldUnexamined.bytes")).doubleValue()));
            assertEquals(v.getMarkings(), at(j, "live.markings.inCapture"));
            assertEquals(v.getLastMarking(), orEmpty(at(j, "live.markings.lastCompletedAt")));
            assertEquals(v.getLiveReport(), at(j, "live.summary"));
        }
        if (at(j, "gc") != null) {
            assertEquals(v.getGcCollector(), at(j, "gc.collector"));
            assertEquals(v.getGcCollections(), at(j, "gc.collections"));
            assertEquals(v.getGcPauseMillis(), at(j, "gc.pauseMillis"));
            assertEquals(v.getGcPauseShare(), ((java.lang.Number) at(j, "gc.pauseShare")).doubleValue(), 5e-4, "JSON keeps 3 decimals");
            assertEquals(v.getGcCpuShare(), ((java.lang.Number) at(j, "gc.cpu.share")).doubleValue(), 5e-4);
            assertEquals(v.getAllocationRateBytesPerSecond(), whole(at(j, "gc.estimatedAllocationRateBytesPerSecond")));
        }
        // The same GC lines: the MXBean puts the warning under the header, the web page above it.
        List<String> report = new ArrayList<>(v.getGcReport());
        List<String> summary = new ArrayList<>((List<String>) (List<?>) at(j, "gcSummary"));
        if (report.size() > 1 && orEmpty(at(j, "gc.alarm")).equals(report.get(1))) {
            report.add(0, report.remove(1));
        }
        assertEquals(report, summary);
        assertEquals(v.getHeapBudgetBytes(), at(j, "heapBudget.bytes"));
        assertEquals(v.getNativeMemoryBytes(), at(j, "nativeMemoryBytes"));
        assertEquals(v.getWeakRefs(), at(j, "weakRefs"));
        assertEquals(v.getNativeAgentError(), orEmpty(at(j, "nativeAgentError")));
        assertEquals(v.getAgentVersion(), at(j, "agentVersion"));
        assertEquals(v.getHttpUrl(), orEmpty(at(j, "url")));
        assertEquals(v.getLeakWatchState(), at(j, "leakWatchState"));
        assertEquals(v.getTimeToOom(), at(j, "timeToOom"));
        assertEquals(v.getProfileError(), orEmpty(at(j, "profileUnavailable")));
    }

    @Test
    void oneReportShowsTheSameFiguresThroughEveryDoor() throws Exception {
        StatusReport report = report(STOPPED, StatusReport.Profile.of(figures()));
        StatusView v = jmx(report);
        Map<String, Object> j = http(report);

        sameFigures(v, j);
        assertTrue(v.getGcReport().size() > 3 && !orEmpty(at(j, "gc.alarm")).isEmpty(), "a report with a warning: " + v.getGcReport());
        assertEquals(List.of(at(j, "gc.alarm")), v.getGcReport().subList(1, 2), "under the header in the MXBean");
        assertEquals(at(j, "gc.alarm"), ((List<?>) at(j, "gcSummary")).get(0), "first on the web page");
        String out = cli(v);
        assertTrue(out.contains(String.format("samples:      %,d (dropped %,d)%n", (long) at(j, "samples"), v.getSamplesDropped())), out);
        assertTrue(out.contains("live:         " + ((List<?>) at(j, "live.summary")).get(0) + System.lineSeparator()), out);
        assertTrue(out.contains("gc:           " + v.getGcReport().get(0)), out);
        assertTrue(out.contains("agent:        heaptap " + at(j, "agentVersion")), out);
        assertTrue(out.contains("time to OOM:  9h 50m [9h 40m, 10h]"), out);
    }

    @Test
    void aProfileTooBigForTheHeapBudgetIsTheSameErrorThroughEveryDoor() throws Exception {
        StatusReport report = report(STOPPED, new StatusReport.Profile(() -> {
            throw new HeapBudgetException("the profile needs 40 MiB of this JVM's heap; heaptap's budget is 8 MiB");
        }));
        StatusView v = jmx(report);
        Map<String, Object> j = http(report);

        sameFigures(v, j);
        assertEquals("the profile needs 40 MiB of this JVM's heap; heaptap's budget is 8 MiB", at(j, "profileUnavailable"));
        assertTrue(v.getGcReport().stream().noneMatch(l -> l.startsWith("allocation rate")), "no rate without the profile: " + v.getGcReport());
        assertTrue(cli(v).contains("profile:      the profile needs 40 MiB"));
    }

    @Test
    void theSessionsReportOfAFakeCaptureShowsTheSameFiguresThroughEveryDoor() throws Exception {
        try (FakeSession session = new FakeSession(tmp.resolve("dumps"))) {
            HttpServing serving = new FixedServing("http://127.0.0.1:8123/");
            StatusReport idle = session.controller().statusReport(new StatusReport.Door("9.9", serving));
            assertFalse(idle.profile().wasRead(), "nothing asked for the profile yet");
            sameFigures(jmx(idle), http(idle));
            assertEquals("idle", idle.state());

            session.controller().start(new CaptureOptions(Duration.ofSeconds(30), 65_536, 32, 1024, true, 512), "test");
            session.controller().stop();
            StatusReport stopped = session.controller().statusReport(new StatusReport.Door("9.9", serving));
            StatusView v = jmx(stopped);
            Map<String, Object> j = http(stopped);
            sameFigures(v, j);
            assertEquals("stopped", v.getState());
            assertEquals(32, v.getStackDepth());
            assertEquals(512, v.getLiveBudget());
            assertEquals("http://127.0.0.1:8123/", at(j, "url"));
            assertEquals("/tmp/token-9", v.getHttpTokenFile(), "the token file reaches the report from the door");
            assertEquals(tmp.resolve("dumps").toString(), v.getDumpDirectory());
            assertNull(at(j, "profileUnavailable"));
        }
    }

    /** An endpoint serving at a fixed URL with a token file, as both doors are given it. */
    private record FixedServing(String at) implements HttpServing {
        @Override
        public HttpServing.Serving start(ServeOptions options) {
            throw new UnsupportedOperationException("not in this test");
        }

        @Override
        public boolean stop() {
            return false;
        }

        @Override
        public Optional<String> url() {
            return Optional.of(at);
        }

        @Override
        public Optional<String> tokenFile() {
            return Optional.of("/tmp/token-9");
        }
    }
}
