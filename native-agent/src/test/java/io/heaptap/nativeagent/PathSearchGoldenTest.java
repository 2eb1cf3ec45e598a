package io.heaptap.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reference-path search result of fixed content, written by the agent's own PathSearchWriter
 * (src/test/cpp/goldenPathSearch.cpp), decoded by PathSearchDecoder and compared line by line with a
 * checked-in rendering, as SnapshotGoldenTest does for the snapshot. After an intended layout change,
 * regenerate the expected file with {@code -Dheaptap.updateGolden=true} and review its diff.
 */
class PathSearchGoldenTest {
    private static final Path EXPECTED = Path.of("src/test/resources/io/heaptap/nativeagent/path-search-golden.txt");

    @TempDir
    Path work;

    @Test
    void decodesTheNativeWritersResultAsCheckedIn() throws Exception {
        PathSearch search = PathSearchDecoder.decode(GoldenProgram.build("goldenPathSearch.cpp", work).output());
        GoldenProgram.assertMatches(EXPECTED, render(search));
    }

    @Test
    void aRefusalBecomesItsMessage() throws Exception {
        byte[] refused = GoldenProgram.build("goldenPathSearch.cpp", work).output("refused");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PathSearchDecoder.decode(refused));
        assertEquals("a reference path search is already running in this JVM", e.getMessage());
    }

    private static String render(PathSearch s) {
        List<String> lines = new ArrayList<>();
        lines.add(s.cutOff() + " (" + s.cutOff().text() + "), objects " + s.objects() + ", references " + s.references()
                + ", depth-limited " + s.depthLimited() + ", walk " + s.walk() + ", resolve " + s.resolve());
        for (ReferencePath path : s.paths()) {
            lines.add("path found=" + path.found() + " complete=" + path.complete() + ": " + path.text());
            for (PathStep step : path.steps()) {
                lines.add("  " + step);
            }
        }
        return String.join("\n", lines) + "\n";
    }
}
