package io.heaptap.profile.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Estimate;
import io.heaptap.profile.Frame;
import io.heaptap.profile.LiveStats;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A site live tracking's bound let go of entirely (it tracks nothing there, and remembers what it let go):
 * every view says its live figure is an upper end only, and how to get figures there.
 */
class LetGoViewsTest {
    static final Frame BUILD = new Frame("app.Index", "build", "Index.java", 12);

    /** WritersTest's profile and one more site: the bound thinned its 64 KiB arrays to none (unit 3,000 objects). */
    static AllocationProfile withEmptiedSite(AllocationProfile p) {
        LiveStats.LetGo letGo = new LiveStats.LetGo(3_000, 3_000 * 65_552.0, new Estimate(40, 40 * 39), new Estimate(40 * 65_552.0, 0));
        List<AllocationSite> sites = new ArrayList<>(p.sites());
        sites.add(new AllocationSite(List.of(BUILD, WritersTest.MAIN), false, "byte[]", 50, 150_000, 150_000 * 65_552.0, 0, 0,
                LiveStats.of(List.of(), letGo)));
        return new AllocationProfile(p.info(), p.liveInfo(), sites);
    }

    @Test
    void theTextReportMarksTheSiteAndTheSummarySaysHowToGetFigures() {
        String text = text(withEmptiedSite(WritersTest.profile()), ProfileFormat.TEXT);
        String row = text.lines().filter(l -> l.contains("byte[]") && l.contains("upper end only")).findFirst().orElse("");
        assertTrue(row.contains("0 B [0 B, "), text);
        assertTrue(row.endsWith("(the bound let go of all it tracked here: an upper end only)"), row);
        assertTrue(text.contains("the bound let go of everything it tracked at 1 site: its live figures are upper ends only;"
                + " for figures there, force a marking (--gc) or ask for a larger bound (--live-bytes)"), text);
    }

    @Test
    void nothingIsSaidWhereTheBoundLetNothingGo() {
        String text = text(WritersTest.profile(), ProfileFormat.TEXT);
        assertFalse(text.contains("upper end only"), text);
        assertFalse(text.contains("the bound let go of everything"), text);
        assertTrue(text(WritersTest.profile(), ProfileFormat.JSON).contains("\"provenMaxAgeMillis\":20000,\"letGo\":null}"));
    }

    @Test
    void theJsonGivesWhatWasLetGo() {
        String json = text(withEmptiedSite(WritersTest.profile()), ProfileFormat.JSON);
        assertTrue(json.contains("\"letGo\":{\"unitObjects\":3000,\"unitBytes\":196656000,\"releasedObjects\":40,"
                + "\"releasedBytes\":2622080}"), json);
        assertTrue(json.contains("\"live\":{\"tracked\":0,\"proven\":{\"tracked\":0,\"estimatedObjects\":0,\"estimatedObjectsLow\":0,"), json);
    }

    @Test
    void anEmptiedSiteHasOnlyAnUpperEnd() {
        LiveStats l = withEmptiedSite(WritersTest.profile()).sites().get(3).live();
        assertTrue(l.emptiedByBound());
        assertEquals(0, l.proven().bytes().value());
        assertEquals(0, l.proven().bytes().lower());
        assertTrue(l.proven().bytes().upper() > 3_000 * 65_552.0, "the upper end counts one more object's weight at least");
        assertFalse(WritersTest.profile().sites().get(0).live().emptiedByBound(), "a site with tracked objects is not emptied");
    }

    private static String text(AllocationProfile profile, ProfileFormat format) {
        return new String(ProfileWriter.toBytes(profile, format), StandardCharsets.UTF_8);
    }
}
