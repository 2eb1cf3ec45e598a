package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.CollectorCost;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.GcCpu;
import io.heaptap.profile.HeapAroundGc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GC cost of a capture window, from collectors whose every collection the test makes. */
class GcMonitorTest {
    @TempDir
    Path noTasks;

    GcMonitor monitor(FakeGcBeans beans) {
        return new GcMonitor(beans, new GcThreadCpu(noTasks.resolve("absent")));
    }

    /** A thread's folder as /proc/self/task holds it: its name and its CPU time so far. */
    Path gcThread(long tid, String name, long cpuNanos) throws IOException {
        Path thread = Files.createDirectories(noTasks.resolve("tasks").resolve(Long.toString(tid)));
        Files.writeString(thread.resolve("comm"), name + "\n");
        Files.writeString(thread.resolve("schedstat"), cpuNanos + " 0 1\n");
        return thread;
    }

    @Test
    void countsWhatHappenedInTheWindowAndTheHeapAroundWholeCollectionsOnly() {
        FakeGcBeans beans = new FakeGcBeans("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation");
        beans.collect("G1 Young Generation", "G1 Evacuation Pause", 7, 0, 0);  // before the window: not counted
        GcMonitor monitor = monitor(beans);
        assertNull(monitor.cost(), "no window opened");
        monitor.start(Runnable::run);
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
        monitor.start(Runnable::run);
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
        monitor.start(Runnable::run);
        GcCost cost = monitor.cost();
        assertEquals("unknown", cost.collector());
        assertTrue(cost.cpu().unavailableReason().contains("no beans here"), cost.cpu().toString());
        assertEquals(0, beans.subscribers(), "nothing left subscribed");
    }

    @Test
    void resetForgetsTheWindowAndANewStartBeginsAtZero() {
        FakeGcBeans beans = new FakeGcBeans("Copy", "MarkSweepCompact");
        GcMonitor monitor = monitor(beans);
        monitor.start(Runnable::run);
        beans.collect("Copy", "Allocation Failure", 4, 10, 5);
        monitor.reset();
        assertNull(monitor.cost());
        monitor.start(Runnable::run);
        assertEquals("Serial", monitor.cost().collector());
        assertEquals(0, monitor.cost().collections());
        assertEquals(HeapAroundGc.NONE, monitor.cost().heapAround());
        assertEquals(1, beans.subscribers(), "one subscription per window");
    }

    /** The first capture's answer does not wait for the GC threads' CPU baseline: it is read when the executor runs it. */
    @Test
    void theCpuFiguresBeginWhenTheDeferredBaselineIsRead() throws IOException {
        Path gcThread = gcThread(11, "GC Thread#0", 1000);
        FakeGcBeans beans = new FakeGcBeans("G1 Young Generation", "G1 Old Generation");
        beans.processCpuNanos = 5_000;
        GcMonitor monitor = new GcMonitor(beans, new GcThreadCpu(gcThread.getParent()));
        List<Runnable> later = new ArrayList<>();
        monitor.start(later::add);
        assertEquals(1, later.size(), "the CPU baseline is left to the executor");

        Files.writeString(gcThread.resolve("schedstat"), "4000 0 1\n");  // before the baseline: not counted
        beans.processCpuNanos = 9_000;
        later.get(0).run();
        Files.writeString(gcThread.resolve("schedstat"), "4600 0 1\n");
        beans.processCpuNanos = 11_000;
        monitor.stop();
        later.get(0).run();  // a late run after the window closed changes nothing
        GcCpu cpu = monitor.cost().cpu();
        assertTrue(cpu.available(), String.valueOf(cpu.unavailableReason()));
        assertEquals(600, cpu.gcThreadNanos());
        assertEquals(2_000, cpu.processNanos());
    }

    /** A window that closes before its deferred baseline was read measures from its end: no CPU, not a failure. */
    @Test
    void aWindowClosedBeforeItsCpuBaselineMeasuresNoCpu() throws IOException {
        Path gcThread = gcThread(12, "G1 Conc#0", 700);
        FakeGcBeans beans = new FakeGcBeans("G1 Young Generation", "G1 Old Generation");
        GcMonitor monitor = new GcMonitor(beans, new GcThreadCpu(gcThread.getParent()));
        monitor.start(task -> { });  // never runs
        beans.collect("G1 Young Generation", "G1 Evacuation Pause", 5, 300, 100);
        monitor.stop();
        assertEquals(1, monitor.cost().collections(), "the collections are counted from the start all the same");
        assertTrue(monitor.cost().cpu().available());
        assertEquals(0, monitor.cost().cpu().gcThreadNanos());
    }
}
