package io.heaptap.profile.leak;

import io.heaptap.profile.JsonSchemaCheck;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The leak report's JSON against docs/schema/leaks.schema.json, both ways (the schema is hand-kept for readers). */
class LeakSchemaTest {

    @Test
    void theLeakJsonEmitsExactlyTheDocumentedFields() throws Exception {
        Random random = new Random(3);
        LeakWatchInfo w = LeakHistoryTest.WATCH;
        LeakWatchInfo warned = new LeakWatchInfo(w.pid(), w.startedAt(), w.durationMillis(), w.everyMillis(), w.elapsedMillis(),
                w.intervalBytes(), w.state(), w.endReason(), w.snapshots(), w.gcs(), w.markings(), w.lastMarkingAt(),
                w.markingLimitation(), w.gcForced(), w.pausesMillis(), w.maxPauseMillis(), w.sitesLeftOut(), w.history(),
                List.of("a warning"));
        LeakReport report = LeakReport.of(warned, List.of(Synthetic.leak(random, 12, Synthetic.MB, 2),
                Synthetic.cache(random, 12, 50 * Synthetic.MB, 20_000, 2),
                Synthetic.garbage(random, 12, 100 * Synthetic.MB)), Censuses.growing(12, Synthetic.MB));
        String json = new String(LeakFormat.JSON.render(report), StandardCharsets.UTF_8);
        // Without --gc the heap part is null, before any census it says why none was taken: both are documented.
        String withoutGc = new String(LeakFormat.JSON.render(LeakReport.of(warned, List.of())), StandardCharsets.UTF_8);
        io.heaptap.profile.census.CensusHistory refused = new io.heaptap.profile.census.CensusHistory(io.heaptap.profile.census.HeapReading.COLLECTOR, io.heaptap.profile.census.HeapSlack.NONE);
        refused.refused("a class census of 50000 loaded classes needs about 19 MiB");
        String refusal = new String(LeakFormat.JSON.render(LeakReport.of(warned, List.of(), refused)), StandardCharsets.UTF_8);
        JsonSchemaCheck.of("leaks.schema.json").check(json).check(withoutGc).check(refusal).assertAllSeen();
    }
}
