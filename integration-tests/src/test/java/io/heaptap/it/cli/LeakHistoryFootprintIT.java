package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jcmd;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.ManySites;
import io.heaptap.profile.census.ClassCount;
import io.heaptap.profile.census.ClassHistogram;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

/**
 * A leak watch's per-site history stays within its share of heaptap's heap budget on a small heap: 1,024 sites
 * on a 64 MiB heap that exits at its first OutOfMemoryError, a snapshot a second. Without the bound, 140 such
 * snapshots kept 10.8 MB of points on that heap (a sixth of it). The report says what the history holds and its
 * bound, and the JVM's own class histogram, taken after the watch with its report still held, counts heaptap's
 * watch objects below that bound.
 */
class LeakHistoryFootprintIT {
    @Test
    void aThousandSitesOnASmallHeapKeepTheHistoryWithinItsBound() throws Exception {
        Jdk jdk = Jdk.current();
        try (TargetJvm target = TargetJvm.start(jdk, ManySites.class, List.of("-Xmx64m", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError"))) {
            String pid = Long.toString(target.pid());
            Result watch = HeaptapCli.run("leaks", pid, "--duration", "20s", "--every", "1s", "--format", "json");
            assertEquals(0, watch.exitCode(), watch::toString);
            JsonNode w = Profiles.json(watch.stdout()).get("watch");
            String said = w.toString();
            JsonNode h = w.get("history");
            long bound = h.get("boundBytes").asLong();
            // A quarter of heaptap's heap budget, which is a sixteenth of the heap: 1 MiB here.
            assertEquals(1 << 20, bound, said);
            assertTrue(w.get("snapshots").asInt() >= 15, said);
            assertTrue(w.get("sitesLeftOut").asLong() > 0, "more sites than the bound admits: " + said);
            int sites = h.get("sites").asInt();
            assertEquals(h.get("maxSites").asInt(), sites, said);
            assertEquals(sites, w.get("sitesFollowed").asInt(), said);
            assertTrue(sites < ManySites.SITES, said);
            assertEquals(8, h.get("pointsPerSite").asInt(), said);
            assertTrue(h.get("bytes").asLong() <= bound, said);

            long[] held = leakObjects(Jcmd.run(jdk, pid, "GC.class_histogram"));
            assertTrue(held[0] > 0, "the ended watch's report is still held");
            assertTrue(held[1] <= bound, "heaptap's watch objects: " + held[1] + " bytes in " + held[0] + " objects; " + said);
            assertTrue(target.isAlive());
            assertFalse(target.stderr().contains("OutOfMemoryError"), target::stderr);
            System.out.println(String.format(Locale.ROOT, "LeakHistoryFootprintIT: %d of %d sites followed, %d points each; history %d of"
                    + " %d bytes by its estimate, %d bytes in %d io.heaptap.profile.leak objects by the class histogram", sites,
                    sites + w.get("sitesLeftOut").asLong(), h.get("pointsPerSite").asInt(), h.get("bytes").asLong(), bound, held[1], held[0]));
        }
    }

    /** Objects and bytes of heaptap's leak-watch classes in a class histogram, as heaptap's census parses one. */
    private static long[] leakObjects(String histogram) {
        long[] held = new long[2];
        for (ClassCount c : ClassHistogram.parse(histogram, Integer.MAX_VALUE, 0, 0, 0, 0).top()) {
            if (c.name().startsWith("io.heaptap.profile.leak.")) {
                held[0] += c.instances();
                held[1] += c.bytes();
            }
        }
        return held;
    }
}
