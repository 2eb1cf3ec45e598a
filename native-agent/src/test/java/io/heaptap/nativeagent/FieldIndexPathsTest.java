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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Field names from JVMTI's field indices, where they are easy to get wrong: fields of superclasses
 * and of implemented interfaces come first in the numbering, and an interface's own static fields.
 */
class FieldIndexPathsTest {
    interface WithConstants {
        Object SHARED = new Object();
        int LIMIT = 3;
    }

    interface MoreConstants extends WithConstants {
        Object OTHER = new Object();
    }

    static class Base implements MoreConstants {
        Object baseA;
        long baseCount;
        Object baseB;
    }

    static final class Derived extends Base {
        static Object unrelated = new Object();
        Object mine;
        Object held;
        int after;
    }

    interface Registry {
        Object FIRST = new Object();
        List<Object> ITEMS = new ArrayList<>();
    }

    static final class Keeper implements MoreConstants {
        static int count;
        static final Object[] KEPT = new Object[20_000];
    }

    static final class ByField {
        final long v;

        ByField(long v) {
            this.v = v;
        }
    }

    static final class ByInterface {
        final long v;

        ByInterface(long v) {
            this.v = v;
        }
    }

    static final class ByStatic {
        final long v;

        ByStatic(long v) {
            this.v = v;
        }
    }

    static final Derived[] DERIVED = new Derived[20_000];

    @BeforeAll
    static void capture() throws Exception {
        NativeAgent agent = NativeAgent.get();
        CaptureStart.withFreshTlabs(agent, SamplerSettings.withoutLargeStratum(512, Duration.ofMinutes(1), 64, 1024, 100_000));
        for (int i = 0; i < DERIVED.length; i++) {
            Derived d = new Derived();
            d.held = new ByField(i);
            DERIVED[i] = d;
            Registry.ITEMS.add(new ByInterface(i));
            Keeper.KEPT[i] = new ByStatic(i);
        }
        agent.stop();
    }

    @AfterAll
    static void clear() throws Exception {
        NativeAgent.get().clear();
    }

    static List<ReferencePath> paths(Class<?> type) throws Exception {
        List<AllocationSite> sites = NativeAgent.get().snapshot(LiveFilter.NONE, LiveProof.NONE).sites();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < sites.size(); i++) {
            if (sites.get(i).type().equals(type.getName()) && sites.get(i).live().tracked() > 0) {
                ids.add(i);
            }
        }
        assertFalse(ids.isEmpty(), type + " is tracked");
        PathSearch search = NativeAgent.get().referencePaths(ids.stream().mapToInt(Integer::intValue).toArray(), 2, 32, 1 << 22,
                Duration.ofSeconds(30));
        assertEquals(PathSearch.CutOff.NONE, search.cutOff());
        assertEquals(2, search.paths().size());
        return search.paths();
    }

    @Test
    void anInstanceFieldAfterSuperclassAndInterfaceFields() throws Exception {
        for (ReferencePath p : paths(ByField.class)) {
            assertTrue(p.text().matches("static " + quoted(FieldIndexPathsTest.class.getName()) + "\\.DERIVED -> "
                    + quoted(Derived.class.getName()) + "\\[\\]\\[\\d+\\] -> " + quoted(Derived.class.getName()) + "\\.held -> "
                    + quoted(ByField.class.getName())), p.text());
        }
    }

    @Test
    void aStaticFieldOfAnInterface() throws Exception {
        for (ReferencePath p : paths(ByInterface.class)) {
            assertTrue(p.text().startsWith("static " + Registry.class.getName() + ".ITEMS -> java.util.ArrayList.elementData -> "),
                    p.text());
        }
    }

    @Test
    void aStaticFieldOfAClassThatImplementsInterfacesWithFields() throws Exception {
        for (ReferencePath p : paths(ByStatic.class)) {
            assertTrue(p.text().matches("static " + quoted(Keeper.class.getName()) + "\\.KEPT -> java\\.lang\\.Object\\[\\]\\[\\d+\\] -> "
                    + quoted(ByStatic.class.getName())), p.text());
        }
    }

    private static String quoted(String s) {
        return java.util.regex.Pattern.quote(s);
    }
}
