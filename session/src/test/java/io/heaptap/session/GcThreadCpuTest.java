package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading GC threads' CPU time from /proc-shaped folders: the real layout, odd names, missing files. */
class GcThreadCpuTest {
    @TempDir
    Path tasks;

    private void thread(long tid, String comm, String schedstat, String stat) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(Long.toString(tid)));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        if (schedstat != null) {
            Files.writeString(dir.resolve("schedstat"), schedstat);
        }
        if (stat != null) {
            Files.writeString(dir.resolve("stat"), stat);
        }
    }

    private static String stat(long tid, String comm, long utime, long stime) {
        return tid + " (" + comm + ") S 1 1 1 0 -1 4194368 100 0 0 0 " + utime + " " + stime + " 0 0 20 0 12 0 100 0 0\n";
    }

    @Test
    void readsGcThreadsBySchedstatAndIgnoresTheRest() throws IOException {
        thread(101, "GC Thread#0", "1500000000 2000 30\n", stat(101, "GC Thread#0", 1, 1));
        thread(102, "G1 Conc#0", "250000000 0 3\n", null);
        thread(103, "main", "9000000000 0 1\n", null);
        thread(104, "Shenandoah GC T", "7 0 1\n", null);  // the kernel cuts names at 15 characters
        GcThreadCpu.Reading r = new GcThreadCpu(tasks).read(GcThreadCpu::isGcThreadName);
        assertNull(r.unavailableReason());
        assertEquals(Map.of(101L, 1_500_000_000L, 102L, 250_000_000L, 104L, 7L), r.cpuNanos());
        assertEquals("G1 Conc#0", r.names().get(102L));
    }

    @Test
    void fallsBackToStatTicksAndParsesNamesWithSpacesAndParentheses() throws IOException {
        String odd = "ZWorker (a) b)";
        thread(201, odd, null, stat(201, odd, 30, 12));
        GcThreadCpu.Reading r = new GcThreadCpu(tasks).read(GcThreadCpu::isGcThreadName);
        assertEquals(Map.of(201L, 42 * GcThreadCpu.NANOS_PER_TICK), r.cpuNanos());
        assertEquals(odd, r.names().get(201L), "the name is kept whole");
        assertEquals(OptionalLong.of(5 * GcThreadCpu.NANOS_PER_TICK), GcThreadCpu.parseStatCpuNanos(stat(7, ") ) (", 2, 3)));
    }

    @Test
    void unreadableFiguresAreLeftOutAndAMissingFolderIsUnavailable() throws IOException {
        thread(301, "GC Thread#1", null, null);  // ended between listing and reading: no figures
        thread(302, "GC Thread#2", "garbage\n", "302 (GC Thread#2) S short\n");
        Files.createDirectories(tasks.resolve("not-a-tid"));
        GcThreadCpu.Reading r = new GcThreadCpu(tasks).read(GcThreadCpu::isGcThreadName);
        assertNull(r.unavailableReason());
        assertTrue(r.cpuNanos().isEmpty(), r.cpuNanos()::toString);

        GcThreadCpu.Reading none = new GcThreadCpu(tasks.resolve("absent")).read(GcThreadCpu::isGcThreadName);
        assertNotNull(none.unavailableReason());
        assertTrue(none.unavailableReason().contains("no per-thread CPU figures"), none.unavailableReason());
        assertEquals(OptionalLong.empty(), GcThreadCpu.parseSchedstat(null));
        assertEquals(OptionalLong.empty(), GcThreadCpu.parseSchedstat("-5 0 0"));
        assertEquals(OptionalLong.empty(), GcThreadCpu.parseStatCpuNanos("no parenthesis here"));
    }

    @Test
    void knowsHotSpotGcThreadNamesAndTheirKinds() {
        for (String name : new String[] {"GC Thread#0", "G1 Conc#0", "G1 Refine#1", "G1 Main Marker", "G1 Service", "ZWorker#3",
                "ZWorkerYoung#0", "ZWorkerOld#1", "ZDirector", "ZDriverMajor", "Shenandoah Cont", "Shenandoah GC T"}) {
            assertTrue(GcThreadCpu.isGcThreadName(name), name);
        }
        for (String name : new String[] {"main", "VM Thread", "C2 CompilerThre", "RuntimeWorker#0", "heaptap-live", "G1"}) {
            assertFalse(GcThreadCpu.isGcThreadName(name), name);
        }
        assertEquals("GC Thread#", GcThreadCpu.kind("GC Thread#12"));
        assertEquals("G1 Main Marker", GcThreadCpu.kind("G1 Main Marker"));
    }

    @Test
    void readsThisJvmsOwnThreads() {
        // This JVM's /proc is real: on Linux the reading works and finds at least one GC thread (or
        // Serial's none); elsewhere it says why not.
        GcThreadCpu.Reading r = new GcThreadCpu(GcThreadCpu.SELF_TASKS).read(name -> true);
        if (Files.isDirectory(GcThreadCpu.SELF_TASKS)) {
            assertNull(r.unavailableReason());
            assertTrue(r.names().containsValue("main") || r.names().size() > 3, r.names()::toString);
        } else {
            assertNotNull(r.unavailableReason());
        }
    }

    /** /proc/self/stat's utime + stime is what the OperatingSystemMXBean reports (times(), the same ticks). */
    @Test
    void theProcessCpuTimeIsTheOneTheOperatingSystemBeanReports() {
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long spin = System.nanoTime() + 50_000_000L;
        long work = 0;
        while (System.nanoTime() < spin) {
            work++;  // some CPU time, so the readings are not all zero ticks
        }
        long before = os.getProcessCpuTime();
        OptionalLong ours = GcThreadCpu.processCpuNanos(Path.of("/proc/self"));
        long after = os.getProcessCpuTime();
        assertTrue(work > 0 && ours.isPresent());
        assertTrue(before <= ours.getAsLong() && ours.getAsLong() <= after, before + " <= " + ours + " <= " + after);
        assertTrue(ours.getAsLong() >= 50_000_000L, "at least the spin: " + ours);
    }

    @Test
    void aProcessNameThatIsNotUtf8DoesNotHideTheProcessCpuTime() throws IOException {
        Files.write(tasks.resolve("stat"), ("42 (\u00ff\u00fe) R 1 " + "0 ".repeat(9) + "250 50 0 0").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(OptionalLong.of(300 * GcThreadCpu.NANOS_PER_TICK), GcThreadCpu.processCpuNanos(tasks));
    }

    /** A settled name is not read again: 2,000 threads' names took 26 ms a read. */
    @Test
    void aSettledNameIsNotReadAgain() throws IOException {
        long[] now = {0};
        GcThreadCpu cpu = new GcThreadCpu(tasks, () -> now[0]);
        thread(101, "GC Thread#0", "100\n", null);
        assertEquals(Map.of(101L, 100L), cpu.read(GcThreadCpu::isGcThreadName).cpuNanos());
        now[0] = GcThreadCpu.NAME_SETTLES_NANOS;
        cpu.read(GcThreadCpu::isGcThreadName);  // read once more, now settled
        Files.delete(tasks.resolve("101").resolve("comm"));
        Files.writeString(tasks.resolve("101").resolve("schedstat"), "250\n");
        now[0] = 3 * GcThreadCpu.NAME_SETTLES_NANOS;
        GcThreadCpu.Reading r = cpu.read(GcThreadCpu::isGcThreadName);
        assertEquals(Map.of(101L, 250L), r.cpuNanos(), "the name came from the earlier reads, the CPU time from now");
        assertEquals("GC Thread#0", r.names().get(101L));
    }

    /** A new thread shows its creator's name until it names itself: its name is read again until it settles. */
    @Test
    void aNewThreadsNameIsReadAgainUntilItSettles() throws IOException {
        long[] now = {0};
        GcThreadCpu cpu = new GcThreadCpu(tasks, () -> now[0]);
        thread(105, "VM Thread", "70\n", null);
        assertTrue(cpu.read(GcThreadCpu::isGcThreadName).cpuNanos().isEmpty());
        Files.writeString(tasks.resolve("105").resolve("comm"), "GC Thread#5\n");
        now[0] = GcThreadCpu.NAME_SETTLES_NANOS - 1;
        assertEquals(Map.of(105L, 70L), cpu.read(GcThreadCpu::isGcThreadName).cpuNanos());
    }

    /** A name first read while it was still its creator's is read again at the next reading, however late that comes. */
    @Test
    void aNameReadOnlyAtFirstSightIsReadAgainLater() throws IOException {
        long[] now = {0};
        GcThreadCpu cpu = new GcThreadCpu(tasks, () -> now[0]);
        thread(107, "VM Thread", "80\n", null);
        assertTrue(cpu.read(GcThreadCpu::isGcThreadName).cpuNanos().isEmpty());
        Files.writeString(tasks.resolve("107").resolve("comm"), "GC Thread#7\n");
        now[0] = 60 * GcThreadCpu.NAME_SETTLES_NANOS;  // the next reading, a minute later
        assertEquals(Map.of(107L, 80L), cpu.read(GcThreadCpu::isGcThreadName).cpuNanos());
    }

    /** A thread id that left the folder (its thread ended) is read afresh when Linux gives it to a new thread. */
    @Test
    void aReusedThreadIdIsReadAfresh() throws IOException {
        long[] now = {0};
        GcThreadCpu cpu = new GcThreadCpu(tasks, () -> now[0]);
        thread(106, "worker-1", "5\n", null);
        cpu.read(GcThreadCpu::isGcThreadName);
        now[0] = 2 * GcThreadCpu.NAME_SETTLES_NANOS;
        cpu.read(GcThreadCpu::isGcThreadName);  // settled as worker-1
        try (var files = Files.list(tasks.resolve("106"))) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(tasks.resolve("106"));
        now[0] = 3 * GcThreadCpu.NAME_SETTLES_NANOS;
        assertTrue(cpu.read(GcThreadCpu::isGcThreadName).cpuNanos().isEmpty());
        thread(106, "GC Thread#6", "9\n", null);
        now[0] = 4 * GcThreadCpu.NAME_SETTLES_NANOS;
        assertEquals(Map.of(106L, 9L), cpu.read(GcThreadCpu::isGcThreadName).cpuNanos());
    }
}
