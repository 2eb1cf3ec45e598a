package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Estimate;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveHold;
import io.heaptap.profile.Markings;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The live table's byte bound (liveTable.h), on the real agent in this JVM: what tracking holds of
 * objects not yet examined stays under the bound at every moment, and the live estimate, thinned by
 * bytes to stay there, still covers a known truth.
 */
class LiveByteBoundTest {
    static final long BYTE_BUDGET = 8L << 20;
    static volatile Object sink;

    @AfterEach
    void clear() throws Exception {
        NativeAgent.get().clear();
    }

    @Test
    void unexaminedBytesStayUnderTheBoundAndTheEstimateStaysUnbiased() throws Exception {
        NativeAgent agent = NativeAgent.get();
        CaptureStart.withFreshTlabs(agent, new SamplerSettings(64 * 1024, Duration.ofMinutes(1), 64, 1024, 65_536, 0, 2)
                .withByteBudgets(BYTE_BUDGET, 0));
        SplittableRandom random = new SplittableRandom(33);
        List<byte[]> kept = new ArrayList<>();
        long truth = 0;
        long worstHeld = 0;
        for (int i = 0; i < 3_000; i++) {  // ~400 MiB of 16-256 KiB arrays, one in four kept: ~100 MiB known truth
            byte[] a = new byte[(16 << 10) << random.nextInt(5)];
            if (i % 4 == 0) {
                kept.add(a);
                truth += a.length + 16;
            } else {
                sink = a;
            }
            if (i % 50 == 0) {
                worstHeld = Math.max(worstHeld, agent.liveHold().unexaminedBytes());
            }
        }
        sink = new long[(int) (BYTE_BUDGET / 8) + 1024];  // larger than the whole bound: never tracked
        agent.stop();
        LiveHold hold = agent.liveHold();
        worstHeld = Math.max(worstHeld, hold.unexaminedBytes());
        assertEquals(BYTE_BUDGET, hold.byteBudget());
        assertTrue(worstHeld <= BYTE_BUDGET, "unexamined bytes held " + worstHeld + " > bound " + BYTE_BUDGET);
        assertTrue(hold.byteThinnings() > 0, "~400 MiB sampled at 64 KiB overflows an 8 MiB bound: " + hold);
        assertTrue(hold.oversize() >= 1, "the array larger than the bound is counted, not tracked: " + hold);
        assertTrue(hold.byteLevel() > 0, "admission is thinned by size now: " + hold);

        long beforeGc = System.nanoTime();
        agent.forceGc();
        agent.setProvenBefore(beforeGc);
        assertEquals(0, agent.liveHold().unexaminedBytes(), "everything tracked was allocated before the marking");
        assertTrue(agent.liveHold().trackedBytes() > 0, "examined, still tracked: " + agent.liveHold());
        NativeSnapshot snapshot = agent.snapshot(LiveFilter.NONE, new LiveProof(beforeGc, Markings.NONE, true, false));
        assertEquals(hold.byteThinnings(), snapshot.live().hold().byteThinnings(), "the snapshot carries the hold");
        AllocationSite site = snapshot.sites().stream().filter(s -> s.type().equals("byte[]")
                && s.stack().get(0).methodName().equals("unexaminedBytesStayUnderTheBoundAndTheEstimateStaysUnbiased"))
                .findFirst().orElseThrow();
        // The bound keeps some 8 MiB of samples at a time, a quarter of them kept arrays: a few dozen entries,
        // each weighted by the inverse of its whole chance (Poisson sampler times every byte and count coin). A
        // 95% interval misses one run in twenty by design; twice its half-width, scaled to the truth's count
        // (as in NativeAgentTest's large stratum), misses about one in 15,000.
        Estimate bytes = site.live().proven().bytes();
        double halfWidth = (bytes.upper() - bytes.lower()) / 2;
        double halfWidthAtTruth = halfWidth * Math.sqrt(truth / Math.max(bytes.value(), 1));
        assertTrue(Math.abs(bytes.value() - truth) <= 2 * halfWidthAtTruth,
                "the truth " + truth + " is within twice the 95% interval's half-width: " + bytes + " " + snapshot.live());
        kept.clear();
    }

    /**
     * Where young collections clear weak references to dead young objects (this JVM's G1), a young object holds
     * nothing back: it counts once it has survived a collection, and the cleaning after it thins to the bound.
     */
    @Test
    void whereYoungCollectionsClearWeakReferencesOnlySurvivorsCount() throws Exception {
        NativeAgent agent = NativeAgent.get();
        CaptureStart.withFreshTlabs(agent, new SamplerSettings(64 * 1024, Duration.ofMinutes(1), 64, 1024, 65_536, 0, 2)
                .withByteBudgets(BYTE_BUDGET, 0, false));
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 1_280; i++) {  // 40 MiB of 32 KiB arrays: ~16 MiB of samples, twice the bound
            kept.add(new byte[32 * 1024 - 16]);
        }
        agent.stop();
        long beforeGc = System.nanoTime();
        agent.forceGc();
        agent.maintainLive();  // as heaptap-live does after every collection
        LiveHold hold = agent.liveHold();
        assertTrue(hold.unexaminedBytes() <= BYTE_BUDGET, "survivors held past the bound: " + hold);
        assertTrue(hold.byteThinnings() > 0 && hold.unexaminedBytes() > BYTE_BUDGET / 4, "they count once they survived: " + hold);
        agent.setProvenBefore(beforeGc);
        NativeSnapshot snapshot = agent.snapshot(LiveFilter.NONE, new LiveProof(beforeGc, Markings.NONE, true, false));
        AllocationSite site = snapshot.sites().stream().filter(s -> s.type().equals("byte[]")
                && s.stack().get(0).methodName().equals("whereYoungCollectionsClearWeakReferencesOnlySurvivorsCount"))
                .findFirst().orElseThrow();
        double truth = 1_280.0 * 32 * 1024;
        Estimate bytes = site.live().proven().bytes();
        double halfWidth = (bytes.upper() - bytes.lower()) / 2;
        double halfWidthAtTruth = halfWidth * Math.sqrt(truth / Math.max(bytes.value(), 1));
        assertTrue(Math.abs(bytes.value() - truth) <= 2 * halfWidthAtTruth, "truth " + truth + ", estimate " + bytes + " " + hold);
        kept.clear();
    }

    @Test
    void aCriticalHeapLetsGoOfEveryUnexaminedObjectAtOnce() throws Exception {
        NativeAgent agent = NativeAgent.get();
        CaptureStart.withFreshTlabs(agent, new SamplerSettings(16 * 1024, Duration.ofMinutes(1), 64, 1024, 65_536, 0, 2)
                .withByteBudgets(BYTE_BUDGET, 0));
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            kept.add(new byte[32 * 1024]);
        }
        agent.stop();
        long refs = agent.weakRefs();
        assertTrue(agent.liveHold().unexaminedBytes() > 0, "tracked: " + agent.liveHold());
        long released = agent.releaseUnexamined();
        LiveHold hold = agent.liveHold();
        assertTrue(released > 0, "released " + released);
        assertEquals(0, hold.unexaminedBytes());
        assertEquals(0, hold.trackedBytes(), "nothing examined is left");
        assertEquals(1, hold.releases());
        assertEquals(released, hold.releasedEntries());
        assertEquals(0, agent.weakRefs(), "nothing was examined: every weak reference is deleted at once, " + refs + " before");

        // The objects are still alive: the site's live figure has no tracked object left, and must not claim 0 [0, 0].
        long beforeGc = System.nanoTime();
        agent.forceGc();
        agent.setProvenBefore(beforeGc);
        NativeSnapshot snapshot = agent.snapshot(LiveFilter.NONE, new LiveProof(beforeGc, Markings.NONE, true, false));
        AllocationSite site = snapshot.sites().stream().filter(s -> s.type().equals("byte[]")
                && s.stack().get(0).methodName().equals("aCriticalHeapLetsGoOfEveryUnexaminedObjectAtOnce"))
                .findFirst().orElseThrow();
        Estimate bytes = site.live().proven().bytes();
        double truth = 400.0 * (32 * 1024 + 16);
        assertEquals(0, site.live().tracked());
        assertEquals(0, bytes.value(), "nothing tracked is left to count");
        assertTrue(bytes.upper() >= truth, "the upper end keeps what was let go, as they may be alive: " + bytes + ", truth " + truth);
        assertTrue(bytes.upper() < 3 * truth, "and is not unbounded: " + bytes);
        kept.clear();
    }
}
