package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.Markings;
import io.heaptap.wire.CounterWindow;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.SiteCounters;
import io.heaptap.wire.SnapshotDecoder;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delta's baseline read from the agent's own snapshot bytes (the golden snapshot of
 * SnapshotGoldenTest) skipping everything but the counters, against the full decoder's counters of
 * the same bytes; and a later snapshot minus a baseline, by site id.
 */
class SiteCountersTest {
    private static final LiveProof PROOF = new LiveProof(999_000_000_000L, Markings.NONE, false, false, 1L << 20, 1L << 30);

    @TempDir
    Path work;

    @Test
    void theCountersAloneAreThoseTheFullDecoderReads() throws Exception {
        byte[] bytes = GoldenProgram.build("goldenSnapshot.cpp", work).output();
        NativeSnapshot decoded = NativeSnapshot.read(new ByteArrayInputStream(bytes), LiveFilter.NONE, PROOF);
        SiteCounters read = SnapshotDecoder.counters(new DataInputStream(new BufferedInputStream(new ByteArrayInputStream(bytes))));
        SiteCounters expected = SiteCounters.of(decoded);
        assertTrue(read.sites() > 1, "the golden snapshot has several sites");
        assertEquals(render(expected), render(read));
        assertEquals(SiteCounters.bytesFor(read.sites()), read.heapBytes());

        // The snapshot minus its own counters: nothing allocated, the live set untouched, the stacks shared.
        NativeSnapshot none = CounterWindow.since(read).apply(decoded);
        assertEquals(0, none.samples());
        for (int i = 0; i < none.sites().size(); i++) {
            AllocationSite s = none.sites().get(i);
            AllocationSite whole = decoded.sites().get(i);
            assertEquals(0, s.samples());
            assertEquals(0.0, s.estimatedBytes());
            assertEquals(0.0, s.bytesVariance());
            assertEquals(whole.live(), s.live());
            assertSame(whole.stack(), s.stack());
        }
        assertEquals(decoded.live(), none.live());
    }

    @Test
    void aLaterSnapshotMinusABaselineBySiteIdAndNewSitesWhole() throws Exception {
        byte[] bytes = GoldenProgram.build("goldenSnapshot.cpp", work).output();
        NativeSnapshot later = NativeSnapshot.read(new ByteArrayInputStream(bytes), LiveFilter.NONE, PROOF);
        // A baseline taken when only the first site existed, with a third of its counts.
        AllocationSite first = later.sites().get(0);
        SiteCounters base = new SiteCounters(later.generation(), first.samples() / 3, later.drops(), new long[] {first.samples() / 3},
                new double[] {first.estimatedObjects() / 3}, new double[] {first.estimatedBytes() / 3},
                new double[] {first.objectsVariance() / 3}, new double[] {first.bytesVariance() / 3});
        NativeSnapshot delta = CounterWindow.since(base).apply(later);
        assertEquals(later.samples() - first.samples() / 3, delta.samples());
        assertEquals(first.samples() - first.samples() / 3, delta.sites().get(0).samples());
        assertEquals(first.estimatedBytes() - first.estimatedBytes() / 3, delta.sites().get(0).estimatedBytes(), 1e-6);
        for (int i = 1; i < later.sites().size(); i++) {
            assertEquals(later.sites().get(i), delta.sites().get(i), "a site made since the baseline counts whole");
        }

        SiteCounters otherRun = new SiteCounters(later.generation() + 1, 0, later.drops(), new long[0], new double[0], new double[0],
                new double[0], new double[0]);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> CounterWindow.since(otherRun).apply(later));
        assertTrue(refused.getMessage().contains("generation"), refused.getMessage());
    }

    /**
     * A window that ended (a capture during continuous sampling, stopped): its end's counters minus its
     * start's, whatever the snapshot counted since, and a site made after its end counts nothing.
     */
    @Test
    void anEndedWindowCountsBetweenItsEndsOnly() throws Exception {
        byte[] bytes = GoldenProgram.build("goldenSnapshot.cpp", work).output();
        NativeSnapshot later = NativeSnapshot.read(new ByteArrayInputStream(bytes), LiveFilter.NONE, PROOF);
        AllocationSite first = later.sites().get(0);
        SiteCounters start = thirds(later, first, 1);
        SiteCounters end = thirds(later, first, 2);
        NativeSnapshot window = new CounterWindow(start, end).apply(later);
        assertEquals(end.samples() - start.samples(), window.samples());
        assertEquals(end.samplesAt(0) - start.samplesAt(0), window.sites().get(0).samples());
        assertEquals(end.bytesAt(0) - start.bytesAt(0), window.sites().get(0).estimatedBytes(), 1e-6);
        assertEquals(first.live(), window.sites().get(0).live(), "the live set as it is now");
        for (int i = 1; i < later.sites().size(); i++) {
            assertEquals(0, window.sites().get(i).samples(), "a site made after the end counts nothing");
            assertEquals(0.0, window.sites().get(i).estimatedBytes());
        }
        assertEquals(window.sites().size(), later.sites().size(), "every site, so site ids still name the same stacks");
        // A delta scrape begun after the window ended counts nothing of it.
        assertEquals(0, new CounterWindow(start, end).after(thirds(later, first, 3)).apply(later).samples());
    }

    /** Counters of the first site only, at {@code n} thirds of its counts. */
    private static SiteCounters thirds(NativeSnapshot s, AllocationSite first, int n) {
        return new SiteCounters(s.generation(), first.samples() * n / 3, s.drops(), new long[] {first.samples() * n / 3},
                new double[] {first.estimatedObjects() * n / 3}, new double[] {first.estimatedBytes() * n / 3},
                new double[] {first.objectsVariance() * n / 3}, new double[] {first.bytesVariance() * n / 3});
    }

    private static List<String> render(SiteCounters c) {
        List<String> lines = new ArrayList<>();
        lines.add("generation " + c.generation() + " samples " + c.samples() + " " + c.drops());
        for (int i = 0; i < c.sites(); i++) {
            lines.add(c.samplesAt(i) + " " + c.objectsAt(i) + " " + c.bytesAt(i) + " " + c.objectsVarianceAt(i) + " "
                    + c.bytesVarianceAt(i));
        }
        return lines;
    }
}
