package io.heaptap.profile.census;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.Drops;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.TrackedObject;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What tracking held unexamined, by class, from a profile: sizes as they are, whatever weight the objects carry. */
class HeldByTrackingTest {

    private static AllocationSite site(String type, TrackedObject... objects) {
        return new AllocationSite(List.of(new Frame("app.A", "a" + type, "A.java", 1)), false, type, 1, 1, 1, 0, 0, LiveStats.of(List.of(objects)));
    }

    @Test
    void sumsTheUnexaminedObjectsOwnSizesByClass() {
        // Weighted to stand for 64 objects each: the census counted the object, not what it stands for.
        TrackedObject unexamined = new TrackedObject(1_000, 64, 64_000, 1, 0, false, false);
        TrackedObject held = new TrackedObject(2_000_000, 1, 2_000_000, 1, 0, false, true);
        TrackedObject proven = new TrackedObject(500, 64, 32_000, 1, 1, true, false);
        CaptureInfo info = new CaptureInfo(new TargetInfo(1, "25", "vm", "app.Main"), Instant.EPOCH, 1, 524_288, 64, 10,
                new Drops(0, 0, 0, 0, 0, 0, 0), List.of(), null);
        AllocationProfile profile = new AllocationProfile(info, null, List.of(site("byte[]", unexamined, held, proven),
                site("byte[]", unexamined), site("app.Order", proven)));
        HeldByTracking h = HeldByTracking.of(profile);
        assertArrayEquals(new long[] {3, 2_002_000}, h.of("byte[]"));
        assertArrayEquals(new long[] {0, 0}, h.of("app.Order"), "a proven object is the application's");
        assertEquals(2_002_000, h.bytes());
    }
}
