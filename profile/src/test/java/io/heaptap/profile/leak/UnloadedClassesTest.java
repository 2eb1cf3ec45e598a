package io.heaptap.profile.leak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.ClassCount;
import io.heaptap.profile.census.ClassGrowth;
import io.heaptap.profile.census.HeapAccount;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Classes unloaded between two censuses (#36: 50,000 loaded classes, then their loader dropped): the report says
 * how many fewer classes the last census counted, in one line, and no class shows a negative growth.
 */
class UnloadedClassesTest {
    static final long MB = 1L << 20;

    static ClassCensus census(long at, int restClasses, long restBytes, long entryBytes) {
        return new ClassCensus(at, 100 * MB + restBytes + entryBytes, 512 * MB, 100, List.of(new ClassCount("byte[]", 1000, 100 * MB),
                new ClassCount("Entry", entryBytes / 32, entryBytes)), new ClassCount(restClasses + " other classes", restClasses,
                restBytes), restClasses, 1000 + restClasses + entryBytes / 32, 100 * MB + restBytes + entryBytes);
    }

    @Test
    void fewerClassesAtTheLastCensusIsOneClearLineAndNoNegativeGrowth() {
        ClassCensus first = census(10_000, 50_000, 30 * MB, MB);
        ClassCensus last = census(70_000, 900, MB, 2 * MB);
        List<ClassGrowth> growth = ClassGrowth.between(first, last, List.of());
        assertEquals(List.of("Entry"), growth.stream().map(ClassGrowth::name).toList(), "only a class that grew");
        assertTrue(growth.get(0).bytesPerMinute() > 0);
        HeapSection h = new HeapSection(2, first, last, HeapAccount.of(last, Map.of()), growth, null, List.of(), "", 0);
        assertEquals("  classes with live objects: 50,002 at the first census, 902 at the last: 49,100 fewer (unloaded, or left with"
                + " no instances); their bytes left the heap, and no class growth counts them", LeakHeapText.classesLine(h));
        StringBuilder sb = new StringBuilder();
        LeakHeapText.append(sb, h);
        assertTrue(sb.toString().contains("49,100 fewer (unloaded"), sb::toString);
    }

    @Test
    void noLineWhenTheCountDidNotFall() {
        ClassCensus first = census(10_000, 900, MB, MB);
        ClassCensus last = census(70_000, 950, MB, 2 * MB);
        HeapSection h = new HeapSection(2, first, last, HeapAccount.of(last, Map.of()), List.of(), null, List.of(), "", 0);
        assertEquals("", LeakHeapText.classesLine(h));
    }
}
