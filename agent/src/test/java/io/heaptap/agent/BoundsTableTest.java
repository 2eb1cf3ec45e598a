package io.heaptap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * docs/internals.md's table of bounds against the code: every constant it names holds the value it
 * states, and every test it names exists. The agent module sees every module that runs in the target.
 */
class BoundsTableTest {
    private static final Path REPOSITORY = Path.of("..");
    private static final List<String> PACKAGES = List.of("io.heaptap.session", "io.heaptap.http.server",
            "io.heaptap.http.jolokia", "io.heaptap.http", "io.heaptap.nativeagent", "io.heaptap.jmx",
            "io.heaptap.profile.census", "io.heaptap.profile.leak", "io.heaptap.wire.options", "io.heaptap.wire");
    private static final Pattern CONSTANT = Pattern.compile("`(\\w+)\\.(\\w+) = ([0-9.]+)`");
    private static final Pattern TEST = Pattern.compile("\\b(\\w+(?:Test|IT))\\b");

    private static List<String[]> rows() throws IOException {
        List<String> lines = Files.readAllLines(REPOSITORY.resolve("docs/internals.md"));
        int start = lines.indexOf("## The footprint rule and the table of bounds");
        assertTrue(start >= 0, "docs/internals.md has no table of bounds");
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(start, lines.size())) {
            if (line.startsWith("## ") && !rows.isEmpty()) {
                break;
            }
            if (line.startsWith("| ") && !line.startsWith("| cost in the target") && !line.startsWith("|---")) {
                String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
                assertEquals(5, cells.length, "a row of five cells: " + line);
                rows.add(cells);
            }
        }
        assertTrue(rows.size() >= 15, "the table lists every bound: " + rows.size() + " rows");
        return rows;
    }

    @Test
    void everyConstantHoldsTheValueTheTableStates() throws Exception {
        int checked = 0;
        for (String[] row : rows()) {
            Matcher m = CONSTANT.matcher(row[3]);
            while (m.find()) {
                Field field = field(m.group(1), m.group(2));
                field.setAccessible(true);
                double actual = ((Number) field.get(null)).doubleValue();
                assertEquals(Double.parseDouble(m.group(3)), actual, 1e-12,
                        m.group(1) + "." + m.group(2) + " in the row '" + row[0] + "'");
                checked++;
            }
        }
        assertTrue(checked >= 25, "constants checked: " + checked);
    }

    @Test
    void everyRowNamesTestsThatExist() throws IOException {
        Set<String> tests;
        try (Stream<Path> files = Files.walk(REPOSITORY)) {
            tests = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith("Test.java") || n.endsWith("IT.java"))
                    .map(n -> n.substring(0, n.length() - ".java".length()))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        for (String[] row : rows()) {
            Matcher m = TEST.matcher(row[4]);
            assertTrue(m.find(), "the row '" + row[0] + "' names no test");
            do {
                assertTrue(tests.contains(m.group(1)), "the row '" + row[0] + "' names " + m.group(1) + ", which does not exist");
            } while (m.find());
        }
    }

    private static Field field(String className, String name) throws NoSuchFieldException {
        for (String pkg : PACKAGES) {
            try {
                return Class.forName(pkg + "." + className).getDeclaredField(name);
            } catch (ClassNotFoundException e) {
                // the next package
            }
        }
        throw new AssertionError("no class " + className + " in " + PACKAGES);
    }
}
