package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.HeapAroundGc;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GC cost of a capture window, from collectors whose every collection the test makes. */
class GcMonitorTest {
    @TempDir
    Path noTasks;

    GcMonitor monitor(FakeGcBeans beans) {
        return new GcMonitor(beans, new GcThreadCpu(noTasks.resolve("absent")));
    }

    @Test
    void countsWhatHappenedInTheWindowAndTheHeapAroundWholeCollectionsOnly() {
        FakeGcBeans beans = new FakeGcBeans("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation");
        beans.collect("G1 Young Generation", "G1 Evacuation Pause", 7, 0, 0);  // before the window: not counted
        GcMonitor monitor = monitor(beans);
        assertNull(monitor.cost(), "no window opened");
        monitor.start();
        beans.collect("G1 Young Generation", "G1 Evacuation Pause", 5, 300, 100);
        beans.collect("G1 Young Generation", "G1 Evacuation Pause", 3, 500, 200);
        beans.collect("G1 Concurrent GC", "G1 Remark", 2, 999, 999);  // a pause inside a cycle: no heap figures
        monitor.stop();
        beans.collect("G1 Old Generation", "System.gc()", 40, 900, 50);  // after the window: not counted

        GcCost cost = monitor.cost();
        assertEquals("G1", cost.collector());
        CollectorCost young = cost.collectors().stream().filter(c -> c.name().equals("G1 Young Generation")).findFirst().orElseThrow();
        assertEquals(2, young.collections());
        assertEquals(8, young.timeMillis());
        CollectorCost old = cost.collectors().stream().filter(c -> c.name().equals("G1 Old Generation")).findFirst().orElseThrow();
        assertEquals(0, old.collections(), "frozen at stop");
        assertEquals(new HeapAroundGc(2, 400, 150, 200), cost.heapAround());
        assertFalse(cost.cpu().available(), "no GC thread figures here, and the cost says so");
        assertEquals(0, beans.subscribers(), "stop ends the subscription");
    }

    @Test
    void aPolledReadWeighsAsTheCollectionsItStandsFor() {
        FakeGcBeans beans = new FakeGcBeans("ZGC Minor Cycles", "ZGC Major Cycles");
        GcMonitor monitor = monitor(beans);
        monitor.start();
        beans.collectSeveral("ZGC Minor Cycles", "", 3, 10, 600, 100);  // one read, three cycles
        beans.collect("ZGC Major Cycles", "Allocation Rate", 10, 200, 300);  // notified
        monitor.stop();
        // Counted once each, the rarer major cycles would weigh as much as all the minor ones the read stands for.
        assertEquals(new HeapAroundGc(4, 500, 150, 300), monitor.cost().heapAround());
    }

    @Test
    void unreadableBeansGiveAnUnknownCostNotAFailure() {
        FakeGcBeans beans = new FakeGcBeans("PS Scavenge", "PS MarkSweep");
        beans.broken = new IllegalStateException("no beans here");
        GcMonitor monitor = monitor(beans);
        monitor.start();
        GcCost cost = monitor.cost();
        assertEquals("unknown", cost.collector());
        assertTrue(cost.cpu().unavailableReason().contains("no beans here"), cost.cpu().toString());
        assertEquals(0, beans.subscribers(), "nothing left subscribed");
    }

    @Test
    void resetForgetsTheWindowAndANewStartBeginsAtZero() {
        FakeGcBeans beans = new FakeGcBeans("Copy", "MarkSweepCompact");
        GcMonitor monitor = monitor(beans);
        monitor.start();
        beans.collect("Copy", "Allocation Failure", 4, 10, 5);
        monitor.reset();
        assertNull(monitor.cost());
        monitor.start();
        assertEquals("Serial", monitor.cost().collector());
        assertEquals(0, monitor.cost().collections());
        assertEquals(HeapAroundGc.NONE, monitor.cost().heapAround());
        assertEquals(1, beans.subscribers(), "one subscription per window");
    }
}
