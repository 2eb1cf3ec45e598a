package io.heaptap.session;

import io.heaptap.nativeagent.PathSearch;
import io.heaptap.nativeagent.ReferencePath;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What holds a site's objects: the chains of one walk, for the sites a text matched.
 *
 * @param site         what was asked for
 * @param sitesMatched allocation sites that matched it
 * @param tracked      tracked objects of those sites alive at the last look (a count)
 * @param search       the walk's result
 */
public record PathReport(String site, int sitesMatched, long tracked, PathSearch search) {
    public static final String PAUSE_WARNING =
            "warning: the heap walk paused the application while it ran (JVMTI FollowReferences)";

    /** The report as lines of text, the same for the CLI, the MBean and the leaks report. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(PAUSE_WARNING + String.format(Locale.ROOT, ": %.1f ms", search.walk().toNanos() / 1e6));
        lines.add(String.format(Locale.ROOT, "site '%s': %d matching site%s, %d tracked object%s; chains for the %d oldest",
                site, sitesMatched, sitesMatched == 1 ? "" : "s", tracked, tracked == 1 ? "" : "s", search.paths().size()));
        if (search.paths().isEmpty()) {
            lines.add("none of them is alive any more (collected since the last look): nothing was walked");
        }
        int n = 0;
        for (ReferencePath p : search.paths()) {
            n++;
            if (!p.found()) {
                lines.add(n + ". not reached" + (search.isCutOff() ? " before the walk was cut off"
                        : ": collected, or held only through more than --max-depth references"));
            } else {
                lines.add(n + ". " + p.text() + (p.complete() ? "" : "  [partial]"));
            }
        }
        lines.add(String.format(Locale.ROOT, "walk: %s; %,d objects recorded, %,d references, %,d objects not followed past"
                        + " --max-depth; %.1f ms paused, %.1f ms naming",
                search.cutOff().text(), search.objects(), search.references(), search.depthLimited(),
                search.walk().toNanos() / 1e6, search.resolve().toNanos() / 1e6));
        return lines;
    }
}
