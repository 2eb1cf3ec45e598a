package io.heaptap.jmx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.heaptap.session.HeapBudgetException;
import io.heaptap.session.ProfileFigures;
import io.heaptap.session.SessionState;
import io.heaptap.session.SessionStatus;
import io.heaptap.session.StatusFixtures;
import io.heaptap.session.StatusReport;

import java.beans.Introspector;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

import org.junit.jupiter.api.Test;

/**
 * The Status composite built from a fake session snapshot and profile, through the real MXBean
 * mapping of an MBeanServer: what a JMX client, Jolokia and the CLI's proxy receive.
 */
public class StatusCompositeTest {
    /** Only the attribute under test, so the composite can be mapped without a Controller. */
    public interface StatusOnlyMXBean {
        StatusView getStatus();
    }

    private static final GcCost GC = StatusFixtures.gc(2_000);
    private static final SessionStatus STOPPED = StatusFixtures.stopped(GC);

    /** A report with the agent's facts fixed: version 1.2.3, 7 weak refs, a leak watch of 3 snapshots. */
    private static StatusReport report(SessionStatus session, Supplier<ProfileFigures> profile) {
        return new StatusReport(session, new StatusReport.Profile(profile), 4242, "1.2.3", "/tmp/heaptap-4242", "http://127.0.0.1:8080/",
                "/tmp/token", new StatusReport.Budget(8L << 20, 0, 0, 0, 0), 7, "watching", 3, "time to OOM: 9h 50m [9h 40m, 10h]", null);
    }

    private static StatusRead read(SessionStatus session, Supplier<ProfileFigures> profile, boolean tolerant) {
        return new StatusRead(report(session, profile), tolerant);
    }

    private static AllocationProfile profile() {
        CaptureInfo info = new CaptureInfo(new TargetInfo(4242, "17", "vm", "app.Main"), Instant.parse("2026-11-21T10:00:00Z"),
                30_000_000_000L, 65_536, 64, 300, new Drops(4, 2, 1, 0, 0, 0, 0), List.of(), GC);
        LiveStats live = LiveStats.of(List.of(new TrackedObject(32, 1000, 32_000, Duration.ofSeconds(20).toNanos(), 9, true, false)));
        LiveInfo liveInfo = new LiveInfo(true, 4096, 1, 0.5, 10, 0, 1, 5, 8, 1, 12, LiveFilter.NONE, false,
                new Markings(3, 2, 0, Instant.parse("2026-11-21T10:00:20Z"), "", 3000), 40L << 20, 256L << 20);
        return new AllocationProfile(info, liveInfo, List.of(new AllocationSite(List.of(new Frame("app.Cache", "put", "Cache.java", 9)),
                false, "app.Entry", 300, 1e6, 64e6, 0, 0, live)));
    }

    private static CompositeData composite(StatusView view) throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        ObjectName name = new ObjectName("test:type=Status");
        server.registerMBean((StatusOnlyMXBean) () -> view, name);
        return (CompositeData) server.getAttribute(name, "Status");
    }

    @Test
    void oneItemPerStatusAttributeUnderItsName() throws Exception {
        Set<String> attributes = new TreeSet<>();
        for (Method m : HeaptapMXBean.class.getMethods()) {
            String n = m.getName();
            if (m.getParameterCount() == 0 && !n.equals("getStatus") && (n.startsWith("get") || n.startsWith("is"))) {
                attributes.add(Introspector.decapitalize(n.substring(n.startsWith("get") ? 3 : 2)));
            }
        }
        attributes.add("profileError");
        CompositeData c = composite(read(STOPPED, () -> null, true));
        assertEquals(attributes, new TreeSet<>(c.getCompositeType().keySet()),
                "every status attribute is in the composite, so no client needs a second read");
    }

    @Test
    void everyFigureFromOneSnapshotAndOneProfile() throws Exception {
        AtomicInteger profileReads = new AtomicInteger();
        AllocationProfile p = profile();
        CompositeData c = composite(read(STOPPED, () -> {
            profileReads.incrementAndGet();
            return ProfileFigures.of(p, "capture");
        }, true));

        assertEquals(1, profileReads.get(), "the profile's figures are read once for all of them");
        assertEquals("stopped", c.get("state"));
        assertEquals("cli pid 7", c.get("startedBy"));
        assertEquals("2026-11-21T10:00:00Z", c.get("startTime"));
        assertEquals(131_072L, c.get("samplingIntervalBytes"), "the interval in force, not the one the capture began at");
        assertEquals("128.0 KiB now, 32.0 KiB–256.0 KiB over the capture (target 5,000 samples/s)", c.get("sampling"));
        assertEquals(true, c.get("liveTracking"));
        assertEquals(4096, c.get("liveBudget"));
        assertEquals(300L, c.get("samples"));
        assertEquals(7L, c.get("samplesDropped"), "dropped + without stack + stack error");
        assertEquals(1L, c.get("trackedObjects"));
        assertEquals(0.5, c.get("keepProbability"));
        // Estimates of bytes are whole bytes: JConsole shows 59459666, not 5.9459665800088614E7.
        assertEquals(Math.round(p.totals().estimatedBytes()), c.get("estimatedAllocatedBytes"));
        assertEquals(Math.round(p.liveTotals().proven().bytes().value()), c.get("estimatedLiveBytes"));
        assertEquals(2L, c.get("markings"));
        assertEquals("2026-11-21T10:00:20Z", c.get("lastMarking"));
        assertTrue(((String[]) c.get("liveReport")).length > 0);
        assertEquals("G1", c.get("gcCollector"));
        assertEquals(400L, c.get("gcCollections"));
        assertEquals(0.1, (Double) c.get("gcCpuShare"), 1e-12);
        assertEquals(123_456L, c.get("nativeMemoryBytes"));
        assertEquals(7L, c.get("weakRefs"));
        assertEquals("1.2.3", c.get("agentVersion"));
        assertEquals("watching", c.get("leakWatchState"));
        assertEquals(3, c.get("leakWatchSnapshots"));
        assertEquals("time to OOM: 9h 50m [9h 40m, 10h]", c.get("timeToOom"));
        assertEquals("", c.get("nativeAgentError"));
        assertEquals("", c.get("profileError"));
    }

    @Test
    void theClientsProxyRebuildsItFromTheCompositeAlone() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        ObjectName name = new ObjectName("test:type=Status");
        server.registerMBean((StatusOnlyMXBean) () -> read(STOPPED, () -> ProfileFigures.of(profile(), "capture"), true), name);
        StatusView v = JMX.newMXBeanProxy(server, name, StatusOnlyMXBean.class).getStatus();
        StatusRead local = read(STOPPED, () -> ProfileFigures.of(profile(), "capture"), true);
        assertEquals(local.getState(), v.getState());
        assertEquals(local.getEstimatedAllocatedBytes(), v.getEstimatedAllocatedBytes());
        assertEquals(local.getLiveReport(), v.getLiveReport());
        assertEquals(local.getGcReport(), v.getGcReport());
        assertEquals(local.getHttpTokenFile(), v.getHttpTokenFile());
        assertEquals("sample callback 1ms = 0.00% of 1m0s process CPU (4.5 \u00b5s a sample; bound 2.0%; not counted: heaptap's threads, the JVM's part of each sample)", v.getSamplingCost());
    }

    @Test
    void idleIsZerosAndBlanks() throws Exception {
        SessionStatus idle = new SessionStatus(SessionState.IDLE, null, null, null, 0, null, 0, 0, "no native agent", null, 0, null);
        CompositeData c = composite(read(idle, () -> null, true));
        assertEquals("idle", c.get("state"));
        assertEquals("", c.get("startedBy"));
        assertEquals(0L, c.get("samplingIntervalBytes"));
        assertEquals(1.0, c.get("keepProbability"));
        assertEquals(-1.0, c.get("gcCpuShare"), "unavailable");
        assertArrayEquals(new String[0], (String[]) c.get("gcReport"));
        assertEquals("no native agent", c.get("nativeAgentError"));
        assertEquals("-", c.get("samplingCost"), "nothing sampled, nothing to say");
    }

    @Test
    void aProfileTooBigForTheHeapBudgetIsSaidInTheCompositeAndThrownByAnAttribute() throws Exception {
        Supplier<ProfileFigures> tooBig = () -> {
            throw new HeapBudgetException("the profile needs 40 MiB of this JVM's heap; heaptap's budget is 8 MiB");
        };
        CompositeData c = composite(read(STOPPED, tooBig, true));
        assertEquals("the profile needs 40 MiB of this JVM's heap; heaptap's budget is 8 MiB", c.get("profileError"));
        assertEquals(0L, c.get("trackedObjects"));
        assertEquals(300L, c.get("samples"), "what the session knows without the profile stays");
        List<String> gc = Arrays.asList((String[]) c.get("gcReport"));
        assertTrue(gc.size() >= 2 && gc.stream().noneMatch(l -> l.contains("allocation rate")), gc.toString());

        StatusRead attribute = read(STOPPED, tooBig, false);
        assertEquals(300L, attribute.getSamples());
        assertThrows(HeapBudgetException.class, attribute::getTrackedObjects);
    }
}
