package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.GcInfo;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.profile.format.ProfileWriter;
import io.heaptap.testing.CallPaths;
import io.heaptap.wire.DumpHeader;
import io.heaptap.wire.LiveProof;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The estimates that admit or refuse a dump in the target, against what decoding and encoding
 * really hold: a decoded profile measured on the heap after collections, and each format's output,
 * which an encoding holds at least twice (its growing buffer and the final copy). An estimate
 * below these would let a dump take more of the application's heap than heaptap's budget.
 */
class DumpCostTest {
    static volatile Object sink;

    @Test
    void estimatesCoverWhatDecodingAndEncodingHold() throws Exception {
        NativeAgent agent = NativeAgent.get();
        for (int levels : new int[] {6, 12}) {
            agent.start(SamplerSettings.withoutLargeStratum(1024, Duration.ofMinutes(1), 64, 65_536, 8192));
            onAFreshThread(() -> {
                for (int round = 0; round < 4; round++) {
                    CallPaths.everyPath(levels, 8, 64);
                }
            });
            agent.stop();
            TableSizes sizes = agent.tableSizes();
            assertTrue(sizes.sites() > 0, "the workload was sampled: " + sizes);
            decode(agent);  // once before measuring: what a first decode leaves for good (classes' statics) is not the profile's
            usedAfterGc();  // and the first reading's own management objects
            long before = usedAfterGc();
            AllocationProfile profile = decode(agent);
            long decoded = usedAfterGc() - before;
            assertTrue(DumpCost.decode(sizes) >= decoded, levels + " levels: decode estimate " + DumpCost.decode(sizes)
                    + " < " + decoded + " held, " + sizes);
            for (ProfileFormat format : ProfileFormat.values()) {
                long output = ProfileWriter.toBytes(profile, format).length;
                long estimate = DumpCost.decodeAndEncode(sizes, format);
                assertTrue(estimate >= decoded + 2 * output, levels + " levels, " + format + ": estimate " + estimate
                        + " < " + decoded + " + 2 x " + output);
            }
            sink = profile;
            agent.clear();
        }
    }

    /** A typical capture (a few hundred sites) must fit a modest budget, or the target would refuse every dump. */
    @Test
    void aTypicalProfileFitsTheBudgetOfA256MiBHeap() throws Exception {
        NativeAgent agent = NativeAgent.get();
        agent.start(SamplerSettings.withoutLargeStratum(16 * 1024, Duration.ofMinutes(1), 64, 65_536, 65_536));
        onAFreshThread(() -> {
            for (int round = 0; round < 64; round++) {
                CallPaths.everyPath(8, 8, 64);
            }
        });
        agent.stop();
        TableSizes sizes = agent.tableSizes();
        agent.clear();
        for (ProfileFormat format : ProfileFormat.values()) {
            assertTrue(DumpCost.decodeAndEncode(sizes, format) < HeapBudget.bytesFor(256L << 20),
                    format + ": " + DumpCost.decodeAndEncode(sizes, format) + " for " + sizes);
        }
    }

    private static AllocationProfile decode(NativeAgent agent) throws IOException {
        return new DumpHeader(new TargetInfo(1, "17", "vm", "main"), Instant.now(), 1, List.of(), null, LiveProof.NONE)
                .profile(agent.snapshot(LiveFilter.NONE, LiveProof.NONE));
    }

    /**
     * Runs the workload on a new thread. This thread's current TLAB may predate sampling: the JVM puts a
     * sample point into a TLAB when it hands one out, so a workload smaller than what is left of it (here
     * 160 KiB, and the main thread's TLAB grows to megabytes after the tests that allocate a lot) was
     * not sampled at all, and the estimates were checked against nothing (seen once in a fresh-clone run).
     * A new thread's first TLAB comes with sampling on.
     */
    static void onAFreshThread(Runnable workload) throws InterruptedException {
        Thread thread = new Thread(workload, "dump-cost-workload");
        thread.start();
        thread.join();
    }

    /**
     * The heap in use as the last of three full collections left it, read from that collection's own
     * report. Not {@code Runtime}'s figure afterwards: by then other threads (surefire's, or
     * the GC poll of a session another test left running) may have taken new TLABs, each counted in
     * full as used, which made the measured decode swing by half a megabyte either way.
     */
    static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        GcInfo last = null;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            GcInfo info = bean instanceof com.sun.management.GarbageCollectorMXBean sun ? sun.getLastGcInfo() : null;
            if (info != null && (last == null || info.getEndTime() > last.getEndTime())) {
                last = info;
            }
        }
        assertNotNull(last, "a collection's report");
        return last.getMemoryUsageAfterGc().values().stream().mapToLong(MemoryUsage::getUsed).sum();
    }
}
