package io.heaptap.it.cli;

import static io.heaptap.it.workload.RetainedSets.LARGE_LENGTH;
import static io.heaptap.it.workload.RetainedSets.MEDIUM_LENGTH;
import static io.heaptap.it.workload.RetainedSets.SET_BYTES;
import static io.heaptap.it.workload.RetainedSets.SMALL_LENGTH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.ConcurrentCycles;
import io.heaptap.it.workload.PromotedGarbage;
import io.heaptap.it.workload.RetainedSets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The live view against retained sets of known size built while heavy garbage is produced.
 *
 * <p>Tolerance: at the 16 KiB interval each 80 MiB set yields ~5,100 samples (~3,300 for the
 * 16 KiB arrays, each sampled with probability 0.63). With the large budget nothing is thinned and
 * the relative standard deviation per site is at most ~1.8%. The 8,192-entry budget cannot hold
 * the ~13,100 retained samples (~4,900 + 4,900 + 3,250), so it is thinned at least once whatever the
 * garbage does.
 *
 * <p>How often it is thinned depends on how much the young generation holds between collections:
 * thinning takes the entries younger than the last collection first, but while the sets are built
 * they are young too, and they share each thinning with the churn. G1 sizes the young generation by
 * the machine and its load: on a loaded 2-core machine the sets ended at a keep probability of 1/4
 * (812 of the 16 KiB arrays tracked), on a quiet CI machine at 1/8 after 5 thinnings (414 tracked).
 * So the small-budget target fixes the young generation at 64 MiB (at most 4,096 samples between
 * collections at p = 1): the old sets alone then decide the thinning, which ends at p = 1/2 or 1/4
 * (at least ~810 of the 16 KiB arrays). The test checks at least 700 objects per site, which keeps
 * the deviation under 3.75%, so 15% is over 4 sigma in both runs. The large budget keeps G1's own
 * sizing: nothing is thinned there whatever the young generation holds. Both ask for the largest byte
 * bound (25% of the heap), which the tracked objects never reach, so only the count budget thins.
 */
class LiveIT {
    static final double TOLERANCE = 0.15;

    @ParameterizedTest
    @ValueSource(ints = {1 << 20, 8192})
    void liveBytesPerRetainedSiteMatchTheTruthAndGarbageIsNotLive(int budget) throws Exception {
        JsonNode profile;
        JsonNode young;
        List<String> jvmOptions = budget < 65536 ? List.of("-Xmx1g", "-XX:+UseG1GC", "-Xmn64m") : List.of("-Xmx1g", "-XX:+UseG1GC");
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), RetainedSets.class, jvmOptions)) {
            String pid = Long.toString(target.pid());
            // The byte bound asked up to its cap: this test is about the count budget, and at G1's default 5%
            // the 16 KiB arrays' tracked bytes (about 50 MiB) are thinned by size, to 667-1,600 of them by timing.
            Result started = HeaptapCli.run("start", pid, "--duration", "10m", "--interval", "16k",
                    "--live-budget", Integer.toString(budget), "--live-bytes", "25%");
            assertEquals(0, started.exitCode(), started::toString);
            target.send("build");
            target.awaitLine("built", Duration.ofMinutes(2));
            Result dump = HeaptapCli.run("dump", pid, "--format", "json", "--gc");
            assertEquals(0, dump.exitCode(), dump::toString);
            profile = Profiles.json(dump.stdout());
            Result filtered = HeaptapCli.run("dump", pid, "--format", "json", "--min-gcs", "1");
            assertEquals(0, filtered.exitCode(), filtered::toString);
            young = Profiles.json(filtered.stdout());
            assertTrue(target.isAlive());
        }

        JsonNode live = profile.get("live");
        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "budget %d: keep-probability %s after %d thinnings, %d tracked", budget,
                live.get("keepProbability").asText(), live.get("thinnings").asLong(), live.get("tracked").asLong()));
        double worst = 0;
        double worstStretch = 0;
        long minTracked = Long.MAX_VALUE;
        for (String[] site : new String[][] {{"keepSmall", "" + SMALL_LENGTH}, {"keepMedium", "" + MEDIUM_LENGTH},
                {"keepLarge", "" + LARGE_LENGTH}}) {
            int length = Integer.parseInt(site[1]);
            long truth = SET_BYTES / (16 + length) * (16 + length);
            JsonNode s = liveSite(profile, site[0]);
            // Built before the forced collection: all of it proven live.
            JsonNode proven = s.get("proven");
            double estimate = proven.get("estimatedBytes").asDouble();
            double low = proven.get("estimatedBytesLow").asDouble();
            double high = proven.get("estimatedBytesHigh").asDouble();
            double error = estimate / truth - 1;
            worst = Math.max(worst, Math.abs(error));
            minTracked = Math.min(minTracked, proven.get("tracked").asLong());
            boolean inside = truth >= low && truth <= high;
            // The 95% interval misses the truth one time in twenty by design: the test allows twice its
            // half-width (about 4 sigma); how often the 95% interval held it is reported, and measured in bench/.
            worstStretch = Math.max(worstStretch, Math.abs(estimate - truth) / Math.max(1, (high - low) / 2));
            report.add(String.format(Locale.ROOT, "  %s: truth %,d, estimate %,.0f (%+.1f%%) [%,.0f, %,.0f] (width ±%.1f%%, truth %s),"
                            + " tracked %d, median age %d ms, median GCs %d",
                    site[0], truth, estimate, 100 * error, low, high, 50 * (high - low) / estimate, inside ? "inside" : "OUTSIDE",
                    proven.get("tracked").asLong(), s.get("medianAgeMillis").asLong(), s.get("medianGcs").asLong()));
        }
        // Garbage is never proven live: what the forced collection examined of it was gone. (Churn allocated
        // since, not yet examined, is left out: on a loaded machine the dump can take a while after the GC.)
        double garbage = churnLiveBytes(profile, true);
        report.add(String.format(Locale.ROOT, "  churn (garbage) proven live after --gc: %,.0f bytes", garbage));
        String text = String.join("\n", report);
        System.out.println(text);

        if (budget < 65536) {
            assertTrue(live.get("thinnings").asLong() >= 1, "the retained samples alone overflow the small budget\n" + text);
        } else {
            assertEquals(0, live.get("thinnings").asLong(), "the large budget holds every sample\n" + text);
        }
        assertTrue(minTracked >= 700, "enough tracked objects per site for the tolerance\n" + text);
        assertTrue(worst <= TOLERANCE, "worst live error " + worst + "\n" + text);
        assertTrue(worstStretch <= 2, "the truth is within twice the 95% interval's half-width\n" + text);
        assertTrue(garbage < 0.01 * SET_BYTES, "garbage sites are near zero after a GC\n" + text);

        // Age: the kept sets are older and survived more GCs than the churn, and --min-gcs 1 hides the churn.
        JsonNode small = liveSite(young, "keepSmall");
        assertTrue(small.get("medianGcs").asLong() >= 1, text);
        assertTrue(churnLiveBytes(young, false) < 0.01 * SET_BYTES, "--min-gcs 1 removes the churn\n" + text);
    }

    /**
     * G1's Remark and Cleanup pauses free no young object, yet the JVM reports them as collections
     * (JVMTI GC finishes). Churn allocated during a concurrent cycle's marking showed as having survived
     * two GCs until the next young collection, so {@code --min-gcs 1} kept garbage: 1-2 MB of it after every
     * cycle, measured on JDK 25 before the fix. Here young collections are ten seconds apart and three
     * cycles run back to back, each followed by a dump; each dump may show what the cycle's own young
     * collection found reachable (the array in the churn's sink: a sample weighs 64 KiB at most), nothing
     * more.
     */
    @ParameterizedTest
    @MethodSource("jdks")
    void garbageAllocatedDuringAConcurrentCycleHasSurvivedNoCollection(Jdk jdk) throws Exception {
        List<String> jvmOptions = List.of("-Xms2g", "-Xmx2g", "-Xmn1g", "-XX:+UseG1GC", "-XX:+ExplicitGCInvokesConcurrent");
        List<String> report = new ArrayList<>();
        try (TargetJvm target = TargetJvm.start(jdk, ConcurrentCycles.class, jvmOptions)) {
            String pid = Long.toString(target.pid());
            Result started = HeaptapCli.run("start", pid, "--duration", "10m", "--interval", "64k", "--live-budget", "65536");
            assertEquals(0, started.exitCode(), started::toString);
            for (int cycle = 1; cycle <= 3; cycle++) {
                target.send("cycle");
                target.awaitLine("cycled", Duration.ofMinutes(1));
                Result dump = HeaptapCli.run("dump", pid, "--format", "json", "--min-gcs", "1");
                assertEquals(0, dump.exitCode(), dump::toString);
                JsonNode survivors = Profiles.json(dump.stdout());
                double churn = churnLiveBytes(survivors, false);
                report.add(String.format(Locale.ROOT, "%s, cycle %d: churn shown by --min-gcs 1: %,.0f bytes", jdk, cycle, churn));
                assertTrue(churn <= 256 * 1024, String.join("\n", report));
            }
            Result all = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, all.exitCode(), all::toString);
            double churnNotFiltered = churnLiveBytes(Profiles.json(all.stdout()), false);
            report.add(String.format(Locale.ROOT, "%s: churn tracked, not filtered: %,.0f bytes", jdk, churnNotFiltered));
            // The filter had something to remove: garbage allocated since the last young collection is tracked.
            assertTrue(churnNotFiltered > 1 << 20, String.join("\n", report));
        }
        System.out.println(String.join("\n", report));
    }

    /**
     * A young collection examines only the young generation: an old object's weak reference stays set
     * whether anything holds it or not. So garbage that was promoted before it died, and that only
     * young collections have run over since, is not examined and must not be called proven live. The
     * workload keeps 100 MB until it is promoted, drops it, and churns through three more collections;
     * each generational collector heaptap knows then has the set tracked (nothing cleared its weak
     * references) and nothing of it proven live. A forced whole-heap collection finally examines it: gone.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("generationalCollectors")
    void oldGarbageThatOnlyYoungCollectionsRanOverIsNotProvenLive(Jdk jdk, String collector) throws Exception {
        List<String> jvmOptions = new ArrayList<>(List.of("-Xms2g", "-Xmx2g"));
        jvmOptions.addAll(List.of(collector.split(" ")));
        List<String> report = new ArrayList<>();
        try (TargetJvm target = TargetJvm.start(jdk, PromotedGarbage.class, jvmOptions)) {
            String pid = Long.toString(target.pid());
            Result started = HeaptapCli.run("start", pid, "--duration", "10m", "--interval", "64k", "--live-budget", "65536");
            assertEquals(0, started.exitCode(), started::toString);
            target.send("build");
            target.awaitLine("built", Duration.ofMinutes(2));
            target.send("drop");
            target.awaitLine("dropped", Duration.ofMinutes(2));
            Result dump = HeaptapCli.run("dump", pid, "--format", "json");
            assertEquals(0, dump.exitCode(), dump::toString);
            JsonNode profile = Profiles.json(dump.stdout());
            JsonNode set = siteLive(profile, "keepThenDrop");
            double proven = set == null ? 0 : set.get("proven").get("estimatedBytes").asDouble();
            double unexamined = set == null ? 0 : set.get("unexamined").get("estimatedBytes").asDouble();
            JsonNode churn = siteLive(profile, "churnThrough");
            report.add(String.format(Locale.ROOT, "%s %s: the dropped 100 MB after young collections: proven live %,.0f,"
                    + " not yet examined %,.0f bytes (the churn: %s tracked)", jdk, collector, proven, unexamined,
                    churn == null ? "none" : churn.get("tracked").asText()));
            Result forced = HeaptapCli.run("dump", pid, "--format", "json", "--gc");
            assertEquals(0, forced.exitCode(), forced::toString);
            JsonNode after = siteLive(Profiles.json(forced.stdout()), "keepThenDrop");
            double left = after == null ? 0 : after.get("proven").get("estimatedBytes").asDouble()
                    + after.get("unexamined").get("estimatedBytes").asDouble();
            report.add(String.format(Locale.ROOT, "  after a forced collection: %,.0f bytes", left));
            System.out.println(String.join("\n", report));
            assertTrue(proven <= 0.01 * PromotedGarbage.SET_BYTES, "garbage proven live\n" + String.join("\n", report));
            // the set was still tracked after the young collections: the case the test is about did arise
            assertTrue(unexamined >= 0.5 * PromotedGarbage.SET_BYTES, "the promoted set was tracked\n" + String.join("\n", report));
            assertTrue(left <= 0.01 * PromotedGarbage.SET_BYTES, "a whole-heap collection clears it\n" + String.join("\n", report));
            // where only explicit collections prove liveness, the report says so
            String limitation = profile.get("live").get("markings").get("limitation").asText();
            assertEquals(collector.contains("generational"), limitation.contains("generational Shenandoah"), limitation);
            assertTrue(target.isAlive());
        }
    }

    /**
     * Generational collectors whose young collections leave old objects' weak references set: G1 on each JDK,
     * Serial and Parallel, and Shenandoah's generational mode (a product option from JDK 25). Generational
     * ZGC is not among them: its own major cycles clear the old generation's weak references, and its
     * young ones prove nothing to heaptap anyway (CollectorsIT).
     */
    static Stream<Arguments> generationalCollectors() {
        Stream<Arguments> g1 = Jdk.all().stream().map(jdk -> Arguments.of(jdk, "-XX:+UseG1GC"));
        Jdk newest = Jdk.newest();
        Stream<Arguments> others = Stream.of(Arguments.of(Jdk.current(), "-XX:+UseSerialGC"), Arguments.of(newest, "-XX:+UseParallelGC"));
        Stream<Arguments> shenandoah = newest.feature() >= 25
                ? Stream.of(Arguments.of(newest, "-XX:+UseShenandoahGC -XX:ShenandoahGCMode=generational"))
                : Stream.empty();
        return Stream.concat(Stream.concat(g1, others), shenandoah);
    }

    /** The live part of the site allocated in {@code method}, or null when none of it is tracked. */
    static JsonNode siteLive(JsonNode profile, String method) {
        for (JsonNode site : profile.get("sites")) {
            JsonNode stack = site.get("stack");
            if (stack.size() > 0 && stack.get(0).get("method").asText().equals(method) && !site.get("live").isNull()) {
                return site.get("live");
            }
        }
        return null;
    }

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    static JsonNode liveSite(JsonNode profile, String method) {
        JsonNode live = siteLive(profile, method);
        if (live == null) {
            throw new AssertionError("no live site for " + method);
        }
        return live;
    }

    /** Live bytes of the churning site: the proven part, or with what is not yet examined. */
    static double churnLiveBytes(JsonNode profile, boolean provenOnly) {
        double bytes = 0;
        for (JsonNode site : profile.get("sites")) {
            JsonNode stack = site.get("stack");
            if (stack.size() > 0 && stack.get(0).get("method").asText().equals("churn") && !site.get("live").isNull()) {
                JsonNode live = site.get("live");
                bytes += live.get("proven").get("estimatedBytes").asDouble()
                        + (provenOnly ? 0 : live.get("unexamined").get("estimatedBytes").asDouble());
            }
        }
        return bytes;
    }
}
