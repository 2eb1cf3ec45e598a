package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.LeakWatchOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.GcCost;
import io.heaptap.profile.IntervalRange;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status every door renders: what the session fills in, and the profile read once, only when a figure needs it. */
class StatusReportTest {
    @TempDir
    Path tmp;

    private static final GcCost GC = StatusFixtures.gc(2_000);
    private static final SessionStatus STOPPED = new SessionStatus(SessionState.STOPPED, "cli pid 7",
            Instant.parse("2026-11-21T10:00:00Z"), Instant.parse("2026-11-21T10:00:30Z"), 0,
            new CaptureOptions(Duration.ofSeconds(30), 65_536, 64, 65_536, false, 4096), 300, 123_456, null, GC,
            65_536, new IntervalRange(65_536, 65_536, 0));

    private static StatusReport report(StatusReport.Profile profile) {
        return new StatusReport(STOPPED, profile, 1, "v", "/d", "", "", new StatusReport.Budget(1, 0, 0, 0, 0), 0, "idle", 0, "", null);
    }

    @Test
    void theProfileIsReadOnceAndOnlyWhenAFigureNeedsIt() {
        AtomicInteger reads = new AtomicInteger();
        StatusReport r = report(new StatusReport.Profile(() -> {
            reads.incrementAndGet();
            return null;
        }));
        assertEquals("stopped", r.state());
        assertEquals(0, r.liveBudget(), "no live tracking, no budget, though the options carry one");
        assertEquals(64, r.stackDepth());
        assertTrue(r.gcHeader().isPresent());
        assertEquals(0, reads.get(), "no figure so far needs the profile");

        r.gcLines();
        r.allocationRate();
        r.profile().orNull();
        r.profile().error();
        assertEquals(1, reads.get(), "read once for all of them");
    }

    @Test
    void aProfileTooBigIsAnErrorForTheCompositeAndThrownForAnAttribute() {
        StatusReport r = report(new StatusReport.Profile(() -> {
            throw new HeapBudgetException("too big");
        }));
        assertNull(r.profile().orNull());
        assertEquals("too big", r.profile().error());
        assertThrows(HeapBudgetException.class, () -> r.profile().required());
        assertEquals(0, r.allocationRate());
        assertTrue(r.gcLines().stream().noneMatch(l -> l.startsWith("allocation rate")), "the rate is not known: " + r.gcLines());
        assertFalse(r.gcLines().isEmpty(), "the GC's cost needs no profile");
    }

    @Test
    void theSessionFillsEveryFigure() {
        HttpServing serving = FakeHttpServing.at("http://127.0.0.1:9/", "/tmp/t");
        try (FakeSession session = new FakeSession(tmp.resolve("dumps"))) {
            Controller c = session.controller();
            StatusReport idle = c.statusReport(new StatusReport.Door("1.0", serving));
            assertEquals("idle", idle.state());
            assertNull(idle.profile().orNull());
            assertEquals("1.0", idle.agentVersion());
            assertEquals("http://127.0.0.1:9/", idle.httpUrl());
            assertEquals("/tmp/t", idle.httpTokenFile());
            assertEquals(tmp.resolve("dumps").toString(), idle.dumpDirectory());
            assertEquals(c.heapBudget().bytes(), idle.heapBudget().bytes());
            assertEquals(ProcessHandle.current().pid(), idle.pid());
            assertEquals("idle", idle.leakWatchState());
            assertEquals(0, idle.leakWatchSnapshots());
            assertEquals("", idle.timeToOom());
            assertNull(idle.otlpPush());
            assertEquals(List.of(), idle.gcLines());

            StatusReport none = c.statusReport(new StatusReport.Door("1.0", null));
            assertEquals("", none.httpUrl(), "no endpoint");

            c.start(new CaptureOptions(Duration.ofSeconds(30), 65_536, 32, 1024, true, 512), "test");
            StatusReport recording = c.statusReport(new StatusReport.Door("1.0", serving));
            assertEquals("recording", recording.state());
            assertEquals(512, recording.liveBudget());
            assertNotNull(recording.profile().orNull());
            assertEquals("capture", recording.profile().orNull().window());
        }
    }

    @Test
    void aWatchEndingDuringTheReadShowsOneMomentsStateWithItsOwnReport() {
        try (FakeSession session = new FakeSession(tmp.resolve("dumps"))) {
            Controller c = session.controller();
            c.startLeakWatch(new LeakWatchOptions(Duration.ofMinutes(10), Duration.ofMinutes(1), 512 * 1024, false), "cli");
            assertEquals(0, c.leakReport().watch().snapshots(), "no step yet");
            session.duringNextStatusRead(c::stopLeakWatch);  // the watch ends, with a last snapshot, while the status is read

            StatusReport r = c.statusReport(new StatusReport.Door("1.0", null));

            assertEquals("ended", c.leakWatchState(), "the hook ran inside the read");
            int last = c.leakReport().watch().snapshots();
            assertEquals(1, last, "the end took its last snapshot");
            // Either moment is a true status; a state of one moment beside a count of the other is not.
            assertEquals(r.leakWatchState().equals("ended") ? last : 0, r.leakWatchSnapshots(),
                    "state " + r.leakWatchState() + " shown with " + r.leakWatchSnapshots() + " snapshots");
        }
    }
}
