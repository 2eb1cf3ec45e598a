package io.heaptap.wire.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** OptionKey's hand-written equals and hashCode keep the record's meaning: equal components, equal keys. */
class OptionKeyTest {
    @Test
    void keysAreEqualExactlyWhenTheirComponentsAre() {
        OptionKey a = new OptionKey("max-stacks", "<n>", "4096", "Distinct stacks.", List.of("maxStacks"));
        OptionKey same = new OptionKey("max-stacks", "<n>", "4096", "Distinct stacks.", List.of("maxStacks"));
        assertEquals(a, same);
        assertEquals(a.hashCode(), same.hashCode());
        assertNotEquals(a, new OptionKey("max-stacks", "<n>", "4096", "Distinct stacks.", List.of()));
        assertNotEquals(a, new OptionKey("max-stacks", "<n>", "8192", "Distinct stacks.", List.of("maxStacks")));
        assertNotEquals(a, new OptionKey("depth", "<n>", "4096", "Distinct stacks.", List.of("maxStacks")));
        assertNotEquals(a, null);
    }
}
