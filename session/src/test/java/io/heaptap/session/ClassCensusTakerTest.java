package io.heaptap.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassHistogram;
import io.heaptap.profile.census.HeapReading;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** The census's memory is reserved from heaptap's heap budget before the JVM is asked: too many classes are refused. */
class ClassCensusTakerTest {
    static final String TEXT = " num     #instances         #bytes  class name (module)\n"
            + "-------------------------------------------------------\n"
            + "   1:            10           1600  [B (java.base@17.0.15)\n"
            + "   2:             2             32  Order\n"
            + "Total            12           1632\n";

    static final class FakeSource implements ClassCensusTaker.Source {
        final AtomicInteger asked = new AtomicInteger();
        long loaded;
        RuntimeException failure;

        FakeSource(long loaded) {
            this.loaded = loaded;
        }

        @Override
        public long loadedClasses() {
            return loaded;
        }

        @Override
        public String histogram() {
            asked.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
            return TEXT;
        }
    }

    @Test
    void fiftyThousandClassesOnASmallHeapAreRefusedBeforeTheJvmIsAsked() {
        HeapBudget budget = new HeapBudget(HeapBudget.bytesFor(128L << 20));  // 8 MiB: a 128 MiB heap
        FakeSource source = new FakeSource(50_000);
        ClassCensusTaker taker = new ClassCensusTaker(budget, new FakeGcBeans("G1 Old Generation"), source);
        HeapBudgetException refused = assertThrows(HeapBudgetException.class, () -> taker.take(0, 100));
        assertTrue(refused.getMessage().contains("a class census of 50000 loaded classes"), refused.getMessage());
        assertTrue(refused.getMessage().contains("GC.class_histogram"), "says what to do instead: " + refused.getMessage());
        assertEquals(0, source.asked.get(), "nothing asked of the JVM");
        assertEquals(0, budget.inUseBytes());
        // On a 1 GiB heap (64 MiB of budget) the same class count fits.
        assertTrue(ClassHistogram.heapNeeded(50_000) <= HeapBudget.bytesFor(1L << 30));
    }

    @Test
    void aCensusHoldsItsReservationWhileReadAndGivesItBack() {
        HeapBudget budget = new HeapBudget(64L << 20);
        FakeSource source = new FakeSource(1_500);
        FakeGcBeans beans = new FakeGcBeans("G1 Old Generation");
        beans.heapAfterGc = 5_000;
        ClassCensus c = new ClassCensusTaker(budget, beans, source).take(System.nanoTime() - 42_000_000_000L, 100);
        assertEquals(1, source.asked.get());
        assertEquals("byte[]", c.top().get(0).name());
        assertEquals(1632, c.totalBytes());
        assertTrue(c.atMillis() >= 42_000 && c.atMillis() < 60_000, "dated by the watch's clock: " + c.atMillis());
        assertEquals(5_000, c.heapAfterGcBytes(), "the collector's own figure");
        assertEquals(0, budget.inUseBytes());
        assertTrue(budget.peakBytes() >= ClassHistogram.heapNeeded(1_500));
    }

    @Test
    void aRefusalByTheJvmIsAMessage() {
        FakeSource source = new FakeSource(10);
        source.failure = new UnsupportedOperationException("no DiagnosticCommand MBean");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new ClassCensusTaker(new HeapBudget(64L << 20), new FakeGcBeans(), source).take(0, 100));
        assertTrue(e.getMessage().contains("no DiagnosticCommand MBean"), e.getMessage());
        assertFalse(e instanceof HeapBudgetException);
    }

    /** The time to OOM follows the census on the collectors whose own figure counts what was allocated during the cycle. */
    @Test
    void theReadingATrendFollowsIsTheCollectors() {
        HeapBudget budget = new HeapBudget(HeapBudget.bytesFor(1L << 30));
        FakeSource source = new FakeSource(1_000);
        assertEquals(HeapReading.CENSUS, new ClassCensusTaker(budget, new FakeGcBeans("ZGC Minor Cycles", "ZGC Minor Pauses",
                "ZGC Major Cycles", "ZGC Major Pauses"), source).reading());
        assertEquals(HeapReading.CENSUS, new ClassCensusTaker(budget, new FakeGcBeans("ZGC Cycles", "ZGC Pauses"), source).reading(),
                "ZGC before JDK 23's generations");
        assertEquals(HeapReading.CENSUS, new ClassCensusTaker(budget, new FakeGcBeans("Shenandoah Pauses", "Shenandoah Cycles"),
                source).reading());
        assertEquals(HeapReading.COLLECTOR, new ClassCensusTaker(budget, new FakeGcBeans("G1 Young Generation",
                "G1 Old Generation"), source).reading());
        assertEquals(HeapReading.COLLECTOR, new ClassCensusTaker(budget, new FakeGcBeans("PS Scavenge", "PS MarkSweep"),
                source).reading());
        assertEquals(HeapReading.COLLECTOR, new ClassCensusTaker(budget, new FakeGcBeans("Copy", "MarkSweepCompact"), source).reading());
        assertEquals("census", HeapReading.CENSUS.key());
        assertEquals("collector", HeapReading.COLLECTOR.key());
    }
}

