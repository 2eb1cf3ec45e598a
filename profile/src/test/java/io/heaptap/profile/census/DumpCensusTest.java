package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A dump's census: bounded to its top rows and the rest, read back as written, and a refusal that says why. */
class DumpCensusTest {
    static final long MB = 1L << 20;

    /** {@code named} classes named, each 1 MiB less than the one before, and 500 others in one row. */
    static ClassCensus census(int named) {
        List<ClassCount> top = new ArrayList<>();
        long total = 16 * MB;
        for (int i = 0; i < named; i++) {
            long bytes = (named - i) * MB;
            top.add(new ClassCount(i == 0 ? "byte[]" : "C" + i, 1000 + i, bytes));
            total += bytes;
        }
        return new ClassCensus(0, total + MB, 4096 * MB, 120, top, new ClassCount("500 other classes", 10_000, 16 * MB), 500,
                10_000 + named * 1000L, total);
    }

    /** A census taken while the application allocates fast counts what it allocated after the collection too. */
    @Test
    void aCensusAboveTheCollectorsFigureSaysWhy() {
        ClassCensus near = census(3);  // 1 MiB below the figure
        assertFalse(String.join("\n", DumpCensusText.lines(DumpCensus.of(near))).contains("more:"));
        ClassCensus busy = new ClassCensus(0, 5 * MB, 256 * MB, 48, List.of(new ClassCount("long[]", 67, 20 * MB)),
                new ClassCount("9 other classes", 100, 6 * MB), 9, 167, 26 * MB);
        String said = String.join("\n", DumpCensusText.lines(DumpCensus.of(busy)));
        assertTrue(said.contains("census 26.0 MiB in 167 objects; the census counted 21.0 MiB more: what the application"
                + " allocated between the collection and the census, dead or not"), said);
        assertTrue(CensusText.of(new CensusReading(busy, 300, 0), 42).contains("the census counted 21.0 MiB more"));
    }

    @Test
    void itReadsBackAsWrittenWithAtMostItsTopRowsAndTheRestSummed() {
        ClassCensus many = census(DumpCensus.TOP + 30);
        DumpCensus back = DumpCensusJson.parse(DumpCensusJson.toJson(DumpCensus.of(many)));
        assertTrue(back.taken());
        ClassCensus c = back.census();
        assertEquals(DumpCensus.TOP, c.top().size());
        assertEquals(many.top().subList(0, DumpCensus.TOP), c.top());
        // Nothing is lost: the rows left out are in the rest, and the totals are the census's.
        long named = c.top().stream().mapToLong(ClassCount::bytes).sum();
        assertEquals(many.totalBytes(), named + c.rest().bytes());
        assertEquals(500 + 30, c.restClasses());
        assertEquals(many.totalBytes(), c.totalBytes());
        assertEquals(many.heapAfterGcBytes(), c.heapAfterGcBytes());
        assertEquals(many.pauseMillis(), c.pauseMillis());
    }

    @Test
    void aRefusalSaysWhyInJsonAndText() {
        DumpCensus refused = DumpCensus.refused("heaptap's heap budget is taken");
        DumpCensus back = DumpCensusJson.parse(DumpCensusJson.toJson(refused));
        assertFalse(back.taken());
        assertEquals("heaptap's heap budget is taken", back.refusal());
        assertEquals(List.of("Class census: not taken (heaptap's heap budget is taken)"), DumpCensusText.lines(refused));
    }

    @Test
    void unreadableTextIsARefusalNotAnError() {
        DumpCensus back = DumpCensusJson.parse("{\"something\": 1}");
        assertFalse(back.taken());
        assertTrue(back.refusal().startsWith("the target's census did not read as one"), back.refusal());
    }

    @Test
    void theTextNamesTheClassesAndTheRest() {
        List<String> lines = DumpCensusText.lines(DumpCensus.of(census(3)));
        assertTrue(lines.get(0).startsWith("Class census after the forced collection"), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("  byte[]")), lines::toString);
        assertTrue(lines.get(lines.size() - 1).endsWith("(500 other classes)"), lines::toString);
    }
}
