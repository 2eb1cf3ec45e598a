package io.heaptap.profile.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.LiveHold;

import org.junit.jupiter.api.Test;

/** The one line every view gives of what live tracking holds back, and when it calls the tracking too thin. */
class LiveHoldLineTest {
    @Test
    void saysTheBoundItsShareAndWhatItCost() {
        LiveHold strict = new LiveHold(4_026_531, 1L << 20, 2L << 20, 205, 2_725, 3, 2, 492, 4096, 0.015, true, "ZGC (generational)");
        assertEquals("tracking holds 1.0 MiB not yet examined, bound 3.8 MiB (1.5% of the heap, strict: ZGC (generational) keeps"
                + " weakly referenced young garbage); thinned by it 205 times (2,725 objects let go); 3 sampled objects larger than"
                + " the bound not tracked; HEAP CRITICAL 2 times: let go of 492 objects not yet examined; the live figures' upper"
                + " ends count what was let go: it may still be live", LiveSummary.holdLine(strict));
        LiveHold lenient = new LiveHold(13_421_772, 0, 0, 0, 0, 0, 0, 0, 0, 0.05, false, "G1");
        assertEquals("tracking holds 0 B not yet examined, bound 12.8 MiB (5% of the heap)", LiveSummary.holdLine(lenient));
        assertEquals("tracking holds 0 B not yet examined, bound 64.0 MiB (25% of the heap)",
                LiveSummary.holdLine(new LiveHold(64L << 20, 0, 0, 0, 0, 0, 0, 0, 0, 0.25, false, "G1")));
    }

    @Test
    void tooThinOnlyWhenTheBoundThinnedAndFewAreLeft() {
        LiveHold thinned = new LiveHold(1L << 20, 0, 0, 1, 1, 0, 0, 0, 0, 0.015, true, "ZGC (generational)");
        assertTrue(thinned.tooThin(LiveHold.TOO_THIN - 1));
        assertFalse(thinned.tooThin(LiveHold.TOO_THIN));
        assertFalse(new LiveHold(1L << 20, 0, 0, 0, 0, 0, 0, 0, 0, 0.015, true, "").tooThin(0), "never thinned: few samples, not the bound");
    }
}
