package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The census read from real {@code GC.class_histogram} output of JDK 17 and 25 (a 1 GiB live set of four kinds). */
class ClassHistogramTest {

    static String sample(String jdk) throws IOException {
        try (InputStream in = ClassHistogramTest.class.getResourceAsStream("class_histogram_" + jdk + ".txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @CsvSource({"jdk17, 799421, 809125160, 3197326, 1085571056, 622", "jdk25, 800845, 809258416, 3358440, 1095303760, 673"})
    void readsTheTopClassesAndTheRestAddsUpToTheTotalLine(String jdk, long byteArrays, long byteArrayBytes, long totalInstances,
                                                           long totalBytes, int rows) throws IOException {
        ClassCensus c = ClassHistogram.parse(sample(jdk), 100, 5_000, 1L << 30, 4L << 30, 12);
        assertEquals(new ClassCount("byte[]", byteArrays, byteArrayBytes), c.top().get(0));
        assertEquals("long[]", c.top().get(1).name());
        assertEquals("char[]", c.top().get(2).name());
        assertEquals(new ClassCount("CensusBench$Node", 789797, 25273504), c.top().get(3), "a class of no named module");
        assertEquals(100, c.top().size());
        // The Total line is the JVM's own sum: the rows read, named and rest, add up to it exactly.
        assertEquals(totalInstances, c.totalInstances());
        assertEquals(totalBytes, c.totalBytes());
        long named = c.top().stream().mapToLong(ClassCount::bytes).sum();
        assertEquals(totalBytes, named + c.rest().bytes());
        assertTrue(c.restClasses() > 0 && c.restClasses() <= rows - 100, () -> "rest " + c.restClasses());
        assertTrue(c.row("java.lang.Object[]") != null || c.rest().bytes() > 0);
        assertEquals(5_000, c.atMillis());
        assertEquals(1L << 30, c.heapAfterGcBytes());
    }

    @Test
    void arrayAndHiddenClassNamesBecomeSiteTypesAndHiddenClassesMerge() {
        String text = """
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:            10           1600  [Ljava.lang.String; (java.base@25.0.3)
                   2:             3             48  Foo$$Lambda/0x000001d8
                   3:             2             32  Foo$$Lambda/0x000001e0
                   4:             1             16  [[I (java.base@25.0.3)
                Total            16           1696
                """;
        ClassCensus c = ClassHistogram.parse(text, 10, 0, 0, 0, 0);
        assertEquals(new ClassCount("java.lang.String[]", 10, 1600), c.row("java.lang.String[]"));
        assertEquals(new ClassCount("Foo$$Lambda", 5, 80), c.row("Foo$$Lambda"));
        assertEquals(new ClassCount("int[][]", 1, 16), c.row("int[][]"));
        assertEquals(3, c.top().size());
        assertEquals(1696, c.totalBytes());
    }

    @Test
    void linesThatAreNotRowsAreSkippedNeverFatal() {
        String text = "garbage\n  x: 1 2 Foo\n 7: 12 nope Foo\n 8: 99999999999999999999999 1 Big\n 9: 5 40 Ok\n\n10: 1\n";
        ClassCensus c = ClassHistogram.parse(text, 10, 0, 0, 0, 0);
        assertEquals(1, c.top().size());
        assertEquals(new ClassCount("Ok", 5, 40), c.top().get(0));
        assertNull(ClassHistogram.row("Total 16 1696", 0, 13));
        assertNotNull(ClassHistogram.row(" 1: 1 2 A", 0, 9));
    }

    @Test
    void fiftyThousandClassesKeepOnlyTheTopAndOneRestRow() {
        StringBuilder sb = new StringBuilder(" num     #instances         #bytes  class name (module)\n");
        for (int i = 1; i <= 50_000; i++) {
            sb.append(String.format("%6d: %13d %13d  com.example.generated.Class%d (app@1)%n", i, 1, 100_000 - i, i));
        }
        ClassCensus c = ClassHistogram.parse(sb.toString(), 100, 0, 0, 0, 0);
        assertEquals(100, c.top().size());
        assertEquals("com.example.generated.Class1", c.top().get(0).name());
        assertEquals(49_900, c.restClasses());
        assertEquals(49_900, c.rest().instances());
        // The text was a few MiB; what a census of 50,000 classes may take is reserved before asking for it.
        assertTrue(ClassHistogram.heapNeeded(50_000) > 2L * sb.length(), () -> "estimate " + ClassHistogram.heapNeeded(50_000));
    }
}
