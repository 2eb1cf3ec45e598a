package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.JsonSchemaCheck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

/** A census asked for on its own, as text and as JSON: every class named or summed, and the JSON as documented. */
class CensusFormatsTest {
    private static final String HISTOGRAM = """
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:          1000       67108864  [B (java.base@25.0.3)
               2:          5000         160000  com.example.Entry
               3:            10           1600  [Ljava.lang.String; (java.base@25.0.3)
               4:             1             16  [[I (java.base@25.0.3)
            Total          6011       67270480
            """;

    /** The top two classes by name, the other two as the rest. */
    private static final CensusReading READING = new CensusReading(
            ClassHistogram.parse(HISTOGRAM, 2, 0, 68_000_000, 256L << 20, 12), 340, 0);

    @Test
    void theTextNamesTheTopClassesSumsTheRestAndGivesBothPauses() {
        String text = CensusText.of(READING, 42);
        assertTrue(text.contains("paused 340 ms for the collection and 12 ms for the census"), text);
        assertTrue(text.contains("byte[]") && text.contains("com.example.Entry"), text);
        assertTrue(text.contains("99.8%"), "byte[]'s share of the census: " + text);
        assertTrue(text.contains("(2 other classes)"), text);
        assertTrue(text.contains("of 256.0 MiB max"), text);
        assertFalse(text.contains("heaptap's samples"), "nothing left out, nothing said: " + text);
    }

    /** On ZGC and Shenandoah the census leaves out heaptap's unexamined samples, and says how much. */
    @Test
    void whatTheCensusLeftOutOfHeaptapsSamplesIsSaid() throws Exception {
        CensusReading less = new CensusReading(READING.census(), 340, 3L << 20);
        assertTrue(CensusText.of(less, 42).contains(", leaving out 3.0 MiB of heaptap's samples no marking had examined"));
        assertEquals(3L << 20, new ObjectMapper().readTree(CensusJson.of(less, 42)).get("heaptapSamplesBytes").asLong());
    }

    @Test
    void theJsonHoldsEveryByteOnceAndIsAsDocumented() throws Exception {
        String json = CensusJson.of(READING, 42);
        JsonNode root = new ObjectMapper().readTree(json);
        long named = 0;
        for (JsonNode row : root.get("classes")) {
            named += row.get("bytes").asLong();
        }
        assertEquals(root.get("censusBytes").asLong(), named + root.get("otherClasses").get("bytes").asLong());
        assertEquals(2, root.get("otherClasses").get("classes").asInt());
        assertEquals("byte[]", root.get("classes").get(0).get("name").asText());
        JsonSchemaCheck.of("census.schema.json").check(json).assertAllSeen();
    }
}
