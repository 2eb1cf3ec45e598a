package io.heaptap.wire.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class LeakWatchOptionsTest {
    static String refusal(String duration, String every) {
        return assertThrows(IllegalArgumentException.class, () -> LeakWatchOptions.parse(duration, every, null, false)).getMessage();
    }

    @Test
    void defaultsAndParsing() {
        LeakWatchOptions d = LeakWatchOptions.parse(null, "", null, false);
        assertEquals(Duration.ofMinutes(5), d.duration());
        assertEquals(Duration.ofSeconds(15), d.every());
        assertEquals(CaptureOptions.DEFAULT_INTERVAL, d.intervalBytes());
        LeakWatchOptions o = LeakWatchOptions.parse("2h", "1m", "64k", true);
        assertEquals(Duration.ofHours(2), o.duration());
        assertEquals(65536, o.intervalBytes());
        assertEquals(Duration.ofSeconds(30), LeakWatchOptions.parse("30s", "30s", null, false).every(), "every may equal duration");
    }

    @Test
    void badInputIsRefusedWithAClearMessage() {
        assertTrue(refusal("30s", "1m").contains("every (1m0s) must not be longer than duration (30.0s)"), refusal("30s", "1m"));
        assertTrue(refusal("30s", "0s").contains("every must be positive"));
        assertTrue(refusal("30s", "-5s").contains("every must be positive, not -5s"));
        assertTrue(refusal("0", "1s").contains("duration must be positive"));
        assertTrue(refusal("-1m", "1s").contains("duration must be positive, not -1m"));
        assertTrue(refusal("8d", "1m").contains("above the maximum of 7 days"));
        assertTrue(refusal("1m", "500ms").contains("every must be at least 1s"));
        assertTrue(refusal("1m", "often").contains("cannot read 'often'"));
    }
}
