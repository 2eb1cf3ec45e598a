package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveFilter;
import io.heaptap.wire.LiveProof;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The heap walk inside this test JVM: real JVMTI FollowReferences on objects held by a static list. */
class ReferencePathsTest {
    static final class Leaked {
        final long a;
        final long b;

        Leaked(long a) {
            this.a = a;
            this.b = a * 31;
        }
    }

    static final class Holder {
        static final List<Object> HELD = new ArrayList<>();
    }

    static volatile Object sink;

    @BeforeEach
    void capture() throws Exception {
        NativeAgent agent = NativeAgent.get();
        CaptureStart.withFreshTlabs(agent, SamplerSettings.withoutLargeStratum(1024, Duration.ofMinutes(1), 64, 1024, 100_000));
        fill();
        agent.stop();
    }

    static void fill() {
        for (int i = 0; i < 50_000; i++) {
            Holder.HELD.add(new Leaked(i));
        }
    }

    @AfterEach
    void clear() throws Exception {
        NativeAgent.get().clear();
        Holder.HELD.clear();
    }

    static int[] leakedSites() throws Exception {
        List<AllocationSite> sites = NativeAgent.get().snapshot(LiveFilter.NONE, LiveProof.NONE).sites();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < sites.size(); i++) {
            if (sites.get(i).type().equals(Leaked.class.getName()) && sites.get(i).live().tracked() > 0) {
                ids.add(i);
            }
        }
        assertFalse(ids.isEmpty(), "Leaked objects are tracked");
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void theChainOfAStaticListIsReportedExactly() throws Exception {
        PathSearch search = NativeAgent.get().referencePaths(leakedSites(), 3, 32, 1 << 22, Duration.ofSeconds(30));
        assertEquals(PathSearch.CutOff.NONE, search.cutOff(), search.toString());
        assertEquals(3, search.paths().size());
        Pattern expected = Pattern.compile(Pattern.quote("static " + Holder.class.getName() + ".HELD -> java.util.ArrayList.elementData"
                + " -> java.lang.Object[][") + "\\d+" + Pattern.quote("] -> " + Leaked.class.getName()));
        for (ReferencePath p : search.paths()) {
            assertTrue(p.complete(), p.toString());
            assertTrue(expected.matcher(p.text()).matches(), p.text());
        }
        System.out.printf("walk %.1f ms, naming %.1f ms, %d objects, %d references%n", search.walk().toNanos() / 1e6,
                search.resolve().toNanos() / 1e6, search.objects(), search.references());
    }

    @Test
    void theIndexIsTheObjectsPositionInTheList() throws Exception {
        PathSearch search = NativeAgent.get().referencePaths(leakedSites(), 1, 32, 1 << 22, Duration.ofSeconds(30));
        ReferencePath p = search.paths().get(0);
        PathStep array = p.steps().get(1);
        assertEquals(HeapReferenceKind.ARRAY_ELEMENT, p.steps().get(0).kind());
        assertEquals("java.lang.Object[]", array.type());
        Object held = Holder.HELD.get(p.steps().get(0).index());
        assertTrue(held instanceof Leaked);
    }

    @Test
    void aTinyTimeLimitCutsTheWalkOffAndAnotherWalkStillWorks() throws Exception {
        PathSearch cut = NativeAgent.get().referencePaths(leakedSites(), 3, 32, 1 << 22, Duration.ofNanos(1));
        assertEquals(PathSearch.CutOff.TIME, cut.cutOff());
        PathSearch whole = NativeAgent.get().referencePaths(leakedSites(), 3, 32, 1 << 22, Duration.ofSeconds(30));
        assertEquals(PathSearch.CutOff.NONE, whole.cutOff(), "the tags of the cut walk are gone with its environment");
        assertTrue(whole.paths().stream().allMatch(ReferencePath::complete));
    }

    @Test
    void aTinyObjectBudgetCutsTheWalkOff() throws Exception {
        PathSearch cut = NativeAgent.get().referencePaths(leakedSites(), 3, 32, 100, Duration.ofSeconds(30));
        assertEquals(PathSearch.CutOff.OBJECTS, cut.cutOff());
        assertTrue(cut.objects() <= 100, "objects recorded: " + cut.objects());
    }

    @Test
    void aDepthOfOneReachesNothingBeyondTheRootsNeighbours() throws Exception {
        PathSearch search = NativeAgent.get().referencePaths(leakedSites(), 2, 1, 1 << 22, Duration.ofSeconds(30));
        assertEquals(PathSearch.CutOff.NONE, search.cutOff());
        assertTrue(search.paths().stream().noneMatch(ReferencePath::found), search.toString());
        assertTrue(search.depthLimited() > 0);
    }
}
