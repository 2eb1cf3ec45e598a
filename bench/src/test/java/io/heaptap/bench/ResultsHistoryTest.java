package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A benchmark run writes its results on top of the file and keeps every earlier run below, newest first. */
class ResultsHistoryTest {
    @Test
    void everyEarlierRunIsKeptNewestFirst(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("RESULTS.md");
        assertEquals("", BenchSuite.earlierRuns(out), "no file, no history");
        Files.writeString(out, "# heaptap benchmark results\n\n- date: 2026-01-01\n\n## Speed\nalpha-run\n");
        Files.writeString(out, "# heaptap benchmark results\n\n- date: 2026-02-01\n\n## Speed\nbeta-run\n" + BenchSuite.earlierRuns(out));
        String third = "# heaptap benchmark results\n\n- date: 2026-03-01\n\n## Speed\ngamma-run\n" + BenchSuite.earlierRuns(out);
        assertEquals(third.indexOf(BenchSuite.EARLIER), third.lastIndexOf(BenchSuite.EARLIER), "one history heading:\n" + third);
        assertTrue(third.indexOf(BenchSuite.EARLIER) > third.indexOf("gamma-run"), third);
        int t = third.indexOf("gamma-run");
        int s = third.indexOf("## The run of 2026-02-01");
        int f = third.indexOf("## The run of 2026-01-01");
        assertTrue(t >= 0 && t < s && s < third.indexOf("beta-run") && third.indexOf("beta-run") < f && f < third.indexOf("alpha-run"), third);
    }
}
