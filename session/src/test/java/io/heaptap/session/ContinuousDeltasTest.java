package io.heaptap.session;

import io.heaptap.wire.options.OtlpPushOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.wire.SiteCounters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP push's deltas against a fake sampler: each is what was counted since the one before (none
 * repeated, none lost), its baseline is its own (a scraper's delta is not moved), and what it keeps of
 * heaptap's heap budget is one baseline's counters, given back when the push stops.
 */
class ContinuousDeltasTest {
    private static final TableSizes SIZES = new TableSizes(500, 20_000, 8_000, 400_000, 80_000, 40_000, 10_000, 300_000, 15_000, 0);

    @TempDir
    Path tmp;
    private FakeSampler sampler;
    private Controller controller;
    private final List<AllocationProfile> encoded = new ArrayList<>();

    @BeforeEach
    void newController() {
        sampler = new FakeSampler();
        sampler.tableSizes = SIZES;
        controller = new Controller(new DumpDirectory(tmp.resolve("dumps")), sampler, null);
    }

    @AfterEach
    void stop() {
        controller.stopContinuous();
        controller.reset();
    }

    private OtlpPush.Deltas deltas() {
        return controller.continuousDeltas(profile -> {
            encoded.add(profile);
            return new byte[] {(byte) encoded.size()};
        });
    }

    @Test
    void eachDeltaCountsFromTheLastOneAndNoFurther() {
        sampler.sites = List.of(site("a", 10, 1_000));
        controller.startContinuous(null, "test");
        OtlpPush.Deltas deltas = deltas();

        assertNull(deltas.next(), "the first call sets the start");
        assertEquals(SiteCounters.bytesFor(1), controller.heapBudget().keptBytes(), "one baseline's counters are kept");

        sampler.sites = List.of(site("a", 14, 1_400), site("b", 3, 300));
        deltas.next();
        sampler.sites = List.of(site("a", 15, 1_500), site("b", 3, 300));
        deltas.next();
        assertEquals(2, encoded.size());
        assertEquals(List.of(4L, 3L), samples(encoded.get(0)), "growth since the start, the new site whole");
        assertEquals(List.of(1L), samples(encoded.get(1)), "only what came since the first push (b, unchanged, is left out)");
        assertEquals(SiteCounters.bytesFor(2), controller.heapBudget().keptBytes(), "still one baseline: the last one was given back");

        deltas.close();
        assertEquals(0, controller.heapBudget().keptBytes());
        assertEquals(0, controller.heapBudget().inUseBytes());
        assertNull(deltas.next(), "closed: nothing more");
    }

    @Test
    void aScrapersDeltaKeepsItsOwnStart() {
        sampler.sites = List.of(site("a", 10, 1_000));
        controller.startContinuous(null, "test");
        DeltaBaseline scrape = controller.deltaBaseline(true, ProfileFormat.PPROF);
        OtlpPush.Deltas deltas = deltas();
        deltas.next();
        sampler.sites = List.of(site("a", 12, 1_200));
        deltas.next();
        sampler.sites = List.of(site("a", 17, 1_700));
        deltas.next();

        AllocationProfile scraped = controller.withDeltaProfile(scrape, false, ProfileFormat.PPROF, p -> p);
        scrape.close();
        assertEquals(List.of(7L), samples(scraped), "the scrape counts from its own start, whatever the push did meanwhile");
        deltas.close();
    }

    @Test
    void aRestartOfContinuousSamplingIsRefusedOnceThenANewStartIsSet() {
        sampler.sites = List.of(site("a", 10, 1_000));
        controller.startContinuous(null, "test");
        OtlpPush.Deltas deltas = deltas();
        deltas.next();
        controller.stopContinuous();
        assertEquals(0, controller.heapBudget().keptBytes(), "stopping gives the baseline back");
        controller.startContinuous(null, "test");
        assertNull(deltas.next(), "counts restarted: a new start, nothing sent");
        sampler.sites = List.of(site("a", 11, 1_100));
        deltas.next();
        assertEquals(1, encoded.size());
        deltas.close();
        controller.stopContinuous();
        assertThrows(SessionConflictException.class, () -> controller.startOtlpPush(OtlpPushOptions.parse("http://127.0.0.1:9", "1s")),
                "no push without continuous sampling");
    }

    private static List<Long> samples(AllocationProfile p) {
        return p.sites().stream().map(AllocationSite::samples).toList();
    }

    private static AllocationSite site(String type, long samples, double bytes) {
        String cls = type.toUpperCase(java.util.Locale.ROOT);
        return new AllocationSite(List.of(new Frame(cls, "m", cls + ".java", 1)), false, type, samples, samples, bytes, samples,
                bytes, LiveStats.NONE);
    }
}
