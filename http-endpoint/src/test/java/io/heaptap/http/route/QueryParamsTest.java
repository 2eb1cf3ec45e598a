package io.heaptap.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class QueryParamsTest {
    static QueryParams of(String name, String value) {
        return new QueryParams(Map.of(name, List.of(value)));
    }

    @Test
    void wholeNumbersAreAsciiDigitsOnly() {
        assertEquals(3, of("n", "3").integer("n", 1, 1, 10));
        assertEquals(3, of("n", " +3 ").integer("n", 1, 1, 10));
        HttpError arabicIndic = assertThrows(HttpError.class, () -> of("n", "\u0663").integer("n", 1, 1, 10));
        assertEquals("n", arabicIndic.parameter(), "issue #15: \u0663 was accepted as 3");
        assertTrue(arabicIndic.getMessage().contains("ASCII digits"), arabicIndic.getMessage());
        assertThrows(HttpError.class, () -> of("n", "\uff13").integer("n", 1, 1, 10));   // fullwidth 3
        assertThrows(HttpError.class, () -> of("n", "99999999999").integer("n", 1, 1, 10));
    }
}
