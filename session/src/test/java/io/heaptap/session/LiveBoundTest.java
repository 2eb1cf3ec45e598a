package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The byte bound on what tracking holds back: its share per collector, what a user may ask, and the refusal. */
class LiveBoundTest {
    static final long HEAP = 256L << 20;

    @Test
    void strictOnGenerationalZgcLenientOnG1AndParallel() {
        LiveBound zgc = LiveBound.of(new FakeGcBeans("ZGC Minor Cycles", "ZGC Major Cycles"), new LargeObjects(2L << 20, 4), HEAP, 0);
        assertTrue(zgc.strict());
        assertEquals(0.015, zgc.share(), 1e-12);
        assertEquals((long) (HEAP * 0.015), zgc.mainBytes() + zgc.largeBytes());
        assertEquals((long) (HEAP * 0.015) / 3, zgc.largeBytes(), "the large stratum's own byte rule: a third");

        LiveBound g1 = LiveBound.of(new FakeGcBeans("G1 Young Generation", "G1 Old Generation"), new LargeObjects(512 << 10, 4), HEAP, 0);
        assertFalse(g1.strict());
        assertEquals((long) (HEAP * 0.05), g1.mainBytes() + g1.largeBytes());
        assertEquals((long) (HEAP * 0.01), g1.largeBytes(), "humongous objects keep their 1% of the heap");

        LiveBound parallel = LiveBound.of(new FakeGcBeans("PS Scavenge", "PS MarkSweep"), LargeObjects.NONE, HEAP, 0);
        assertEquals((long) (HEAP * 0.05), parallel.mainBytes());
        assertEquals(0, parallel.largeBytes());
        assertEquals("Parallel", parallel.collector());
    }

    @Test
    void generationalShenandoahIsStrict() {
        FakeGcBeans beans = new FakeGcBeans("Shenandoah Pauses", "Shenandoah Cycles");
        beans.generationalShenandoah = true;
        assertTrue(LiveBound.of(beans, LargeObjects.NONE, HEAP, 0).strict());
        assertFalse(LiveBound.of(new FakeGcBeans("Shenandoah Pauses", "Shenandoah Cycles"), LargeObjects.NONE, HEAP, 0).strict());
    }

    @Test
    void aUserMayAskForMoreUpToAQuarterOfTheHeap() {
        FakeGcBeans zgc = new FakeGcBeans("ZGC Minor Cycles", "ZGC Major Cycles");
        LiveBound share = LiveBound.of(zgc, LargeObjects.NONE, HEAP, 0.05);
        assertEquals((long) (HEAP * 0.05), share.mainBytes());
        assertTrue(share.asked());
        LiveBound bytes = LiveBound.of(zgc, LargeObjects.NONE, HEAP, 32L << 20);
        assertEquals(32L << 20, bytes.mainBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LiveBound.of(zgc, LargeObjects.NONE, HEAP, 0.4));
        assertEquals("live bytes 40.0% is more than tracking may hold back of this heap: at most 25% of the maximum heap 256.0 MiB,"
                + " 64.0 MiB", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LiveBound.of(zgc, LargeObjects.NONE, HEAP, 100L << 20));
    }

    @Test
    void theOptionReadsASharePercentOrASize() {
        assertEquals(0.05, CaptureOptions.parseLiveBytes("5%"), 1e-12);
        assertEquals(64L << 20, CaptureOptions.parseLiveBytes("64m"), 1e-12);
        assertEquals(0, CaptureOptions.parseLiveBytes(" default "), 1e-12);
        assertEquals(0, CaptureOptions.parseLiveBytes(""), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parseLiveBytes("0%"));
        assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parseLiveBytes("-3m"));
        assertThrows(IllegalArgumentException.class, () -> CaptureOptions.parseLiveBytes("lots%"));
    }
}
