package io.heaptap.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The build's smoke run of the suite: every section runs and produces its table (numbers not checked).
 * Its windows are short (BenchSuite.SMOKE_MILLIS) and the overhead section runs every tool on the
 * allocation-heavy target only, the mixed target under one: the same code measures both.
 */
class BenchSmokeTest {
    @Test
    void quickRunWritesEverySection() throws Exception {
        Path out = Path.of(System.getProperty("heaptap.benchOut"));
        // An earlier local run's file must not pass for this one.
        Files.deleteIfExists(out);
        BenchSuite.main(new String[] {"--quick", "--jar", System.getProperty("heaptap.jar"),
                "--classes", System.getProperty("heaptap.benchClasses"),
                "--async-profiler", System.getProperty("heaptap.asyncProfilerJar"),
                "--jdks", System.getProperty("java.home"), "--out", out.toString()});
        String results = Files.readString(out);
        for (String section : new String[] {"## Overhead: allocation-heavy", "## Overhead: mixed", "## Speed", "## Memory after",
                "## GC pauses with 64k tracked weak references", "-XX:+UseZGC", "## Dump time against tracked objects",
                "## Accuracy: allocated bytes per site", "## Accuracy: live bytes per site", "## Goals (issues #7 and #16)",
                "## Live-estimate coverage under the live-tracking bound", "`keep1m`",
                "## Class census pause", "`jcmd PID GC.class_histogram -all`",
                "| heaptap default, 10 s |"}) {
            assertTrue(results.contains(section), section + " missing:\n" + results);
        }
        for (String tool : new String[] {"| heaptap 512k no-live |", "| heaptap 512k live |", "| heaptap 64k live |",
                "| JFR profile |", "| async-profiler alloc 512k |", "| async-profiler alloc 512k live |"}) {
            assertTrue(results.contains(tool), tool + " missing:\n" + results);
        }
        // The smoke run measures the mixed target under one tool (the allocation-heavy one shows every tool).
        String mixed = results.substring(results.indexOf("## Overhead: mixed"));
        assertTrue(mixed.substring(0, mixed.indexOf("\n## ")).contains("| heaptap default live |"), mixed);
        // Every tool's estimates were read (a tool that failed silently shows 0.000 at every site).
        assertFalse(results.contains("NaN"), results);
        List<String> sites = results.lines().filter(l -> l.startsWith("| `bytes") || l.startsWith("| `kept")).toList();
        assertEquals(11, sites.size(), results);
        for (int column : new int[] {5, 6, 7}) {
            assertTrue(sites.stream().anyMatch(l -> Double.parseDouble(l.split("\\|")[column].trim()) > 0),
                    "column " + column + " all zero:\n" + results);
        }
        // The quick run's figures are judged; the 64k-tracked dump row needs a full run's budgets, so it may not be.
        for (String goal : new String[] {"| overhead of heaptap 512k without", "| worst per-site error of heaptap below",
                "| worst per-site error of allocated bytes, heaptap at its defaults", "| attach to first sample"}) {
            assertTrue(results.lines().anyMatch(l -> l.startsWith(goal) && !l.contains("not measured")), goal + ":\n" + results);
        }
    }
}
