package io.heaptap.profile.leak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.census.CensusHistory;
import io.heaptap.profile.census.HeapReading;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The whole heap in the leak report: accounted for, class growth beside the verdicts, time to OOM; in text, JSON and HTML. */
class LeakHeapReportTest {

    static LeakReport report(CensusHistory censuses) {
        Random random = new Random(36);
        return LeakReport.of(LeakHistoryTest.WATCH, List.of(Synthetic.leak(random, 12, Synthetic.MB, 64),
                Synthetic.garbage(random, 12, 100 * Synthetic.MB)), censuses);
    }

    /** Serial's line follows its fully compacted readings: with too few of them the report says so, not "no trend". */
    @Test
    void tooFewFullyCompactedReadingsAreSaidAsSuch() {
        List<io.heaptap.profile.census.TimeToOom.Point> readings = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            readings.add(new io.heaptap.profile.census.TimeToOom.Point(i * 10_000L, 1L << 30, 0, i % 4 == 0));
        }
        String line = LeakHeapText.timeToOom(null, readings);
        assertTrue(line.startsWith("time to OOM: needs 5 forced collections that compacted the whole heap (3 of 12 so far)"), line);
        assertTrue(LeakHeapText.timeToOom(null, readings.subList(0, 3)).startsWith("time to OOM: needs the heap after 5 forced"
                + " collections (3 so far)"));
    }

    @Test
    void theHeapAfterGcIsAccountedForAndTheLeaksClassGrowthIsItsSites() {
        LeakReport r = report(Censuses.growing(12, Synthetic.MB));
        HeapSection h = r.heap();
        assertEquals(12, h.censuses());
        // Census 1,020 MiB + growth against 1,030 MiB + growth after GC: within 1%.
        assertTrue(Math.abs(h.account().accountedShare() - 1) < 0.05, () -> "share " + h.account().accountedShare());
        assertEquals("byte[]", h.growth().get(0).name());
        assertEquals(60.0 * Synthetic.MB, h.growth().get(0).bytesPerMinute(), 0.001 * Synthetic.MB, "1 MiB/s, exactly");
        var leak = h.growth().get(0).sites().get(0);
        assertTrue(leak.allocatedAt().contains("leak"), leak.toString());
        assertTrue(leak.shareLow() <= 1 && leak.shareHigh() >= leak.share(), leak.toString());
        assertTrue(h.timeToOom().trend());

        String text = new String(LeakFormat.TEXT.render(r), StandardCharsets.UTF_8);
        assertTrue(text.contains("the sampled sites explain"), text);
        assertTrue(text.contains("present before heaptap came, or not explained by the sampled sites"), text);
        assertTrue(text.contains("accounted for: "), text);
        assertFalse(text.contains("holds no live object"), "1% beyond the census is not worth a line: " + text);
        assertTrue(text.contains("class byte[] grew +60.0 MiB/min (exact, by census); this site's part"), text);
        assertTrue(text.contains("time to OOM: "), text);
        assertTrue(text.contains("; the latest allows for up to 5% of it being garbage the forced collections left in place, which the"
                + " collection before an OutOfMemoryError frees"), text);
        assertTrue(new String(LeakFormat.JSON.render(r), StandardCharsets.UTF_8).contains("\"deadWoodShare\":0.05"), "JSON says the share");
        assertTrue(text.contains("(500 other classes)"), text);

        String html = new String(LeakFormat.HTML.render(r), StandardCharsets.UTF_8);
        assertTrue(html.contains("\"classGrowth\":[{\"name\":\"byte[]\""), "the page's data carries the census");
        assertTrue(html.contains("Time to OOM"));
        assertTrue(html.contains("\"notLiveBytes\":0,"), "1% is not worth a line on the page either");
    }

    /**
     * Generational ZGC after a forced collection: 80 MiB in use beyond the census's live bytes, garbage in whole pages; its
     * time to OOM follows the census, and every view says so.
     */
    @Test
    void whatTheCollectorsFigureHoldsBeyondTheLiveObjectsIsSaid() {
        LeakReport r = report(Censuses.growing(12, Synthetic.MB, 80 * Censuses.MB, HeapReading.CENSUS));
        assertEquals(80 * Censuses.MB, r.heap().account().notLiveBytes());
        String text = new String(LeakFormat.TEXT.render(r), StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*the other 80\\.0 MiB \\([0-9.]+%\\) of the collector's figure holds no live object.*"), text);
        assertTrue(text.contains("the live bytes the census counted growing by +60.0 MiB/min"), text);
        assertTrue(text.contains("; this collector's own figure also counts what the application allocated while it collected"), text);
        assertTrue(r.timeToOom().contains("the live bytes the census counted growing by"), "status's line too: " + r.timeToOom());
        String json = new String(LeakFormat.JSON.render(r), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"reading\":\"census\""), json);
        assertTrue(json.contains("\"notLiveBytes\":" + 80 * Censuses.MB + ","), "the pages read it, not their own 2%: " + json);
    }

    @Test
    void withoutGcThereIsNoHeapPartAndARefusalIsSaid() {
        assertEquals(null, report(null).heap());
        String text = new String(LeakFormat.TEXT.render(report(null)), StandardCharsets.UTF_8);
        assertFalse(text.contains("class census"), text);
        CensusHistory refused = new CensusHistory(HeapReading.COLLECTOR, io.heaptap.profile.census.HeapSlack.NONE);
        refused.refused("a class census of 50000 loaded classes needs about 19.3 MiB of this JVM's heap");
        String said = new String(LeakFormat.TEXT.render(report(refused)), StandardCharsets.UTF_8);
        assertTrue(said.contains("class census: none taken: a class census of 50000 loaded classes"), said);
    }

    @Test
    void aFlatHeapHasNoTimeToOom() {
        CensusHistory flat = Censuses.growing(6, 0);
        String text = new String(LeakFormat.TEXT.render(report(flat)), StandardCharsets.UTF_8);
        assertTrue(text.contains("time to OOM: no trend in the heap after GC (+0 B/min ["), text);
    }
}
