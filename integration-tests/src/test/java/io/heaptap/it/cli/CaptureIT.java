package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.OneLineErrors;
import io.heaptap.it.workload.Allocator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** heaptap capture against real JVMs on every JDK of the machine. */
class CaptureIT {

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void captureByPidPrintsTheTopSitesTable(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            Result r = HeaptapCli.run("capture", Long.toString(target.pid()), "--duration", "1s");
            assertEquals(0, r.exitCode(), r::toString);
            String out = r.out();
            assertTrue(out.contains("Top allocation sites"), out);
            assertTrue(out.contains("Top types"), out);
            assertTrue(out.contains("at io.heaptap.it.workload.Allocator.allocateLongs(Allocator.java:"), out);
            assertTrue(out.contains("long[]"), out);
            // The default is a sample-rate target: the header shows the interval (a range once it moved:
            // the target is read every 100 ms, so even a 1 s capture may move it) and the target.
            assertTrue(Pattern.compile("interval [0-9.]+ [KMG]iB(–[0-9.]+ [KMG]iB)? \\(adaptive, target 5,000 samples/s\\)")
                    .matcher(out).find(), out);
            assertEquals(jdk.feature() < 25, out.contains("heap sampler is biased"), "accuracy warning only before JDK 25");
            assertTrue(target.isAlive());
            assertFalse(target.stdout().contains("heaptap") || target.stderr().contains("heaptap"),
                    "heaptap printed nothing in the target: " + target.stderr());
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void everyFormatIsWrittenAndReadsBackInItsConsumer(Jdk jdk) throws Exception {
        Path dir = Paths.workDir("formats");
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("capture", pid, "--duration", "1s", "--interval", "64k",
                    "--out", dir.resolve("p.pb.gz").toString()).exitCode());
            for (String file : List.of("p.txt", "p.collapsed", "p.json", "p.html")) {
                Result r = HeaptapCli.run("dump", pid, "--out", dir.resolve(file).toString());
                assertEquals(0, r.exitCode(), r::toString);
            }
        }
        checkPprof(Profiles.pprof(dir.resolve("p.pb.gz")));

        List<String> collapsed = Files.readAllLines(dir.resolve("p.collapsed"));
        assertFalse(collapsed.isEmpty());
        for (String line : collapsed) {
            assertTrue(line.matches("[^ ]+ [0-9]+"), "collapsed line: " + line);
        }
        assertTrue(collapsed.stream().anyMatch(l -> l.contains("io.heaptap.it.workload.Allocator.allocateLongs;long[] ")));

        JsonNode json = Profiles.json(dir.resolve("p.json"));
        assertEquals("heaptap-profile", json.get("schema").asText());
        assertEquals(65536, json.get("capture").get("intervalBytes").asLong());
        assertTrue(json.get("capture").get("samples").asLong() > 0);
        double[] longs = Profiles.siteTotals(json, "allocateLongs", "long[]");
        assertTrue(longs[2] > 0 && longs[1] > 0);

        String html = Files.readString(dir.resolve("p.html"));
        assertTrue(html.contains("allocateLongs"));
        assertTrue(html.contains("d3.hierarchy"));
        assertFalse(html.matches("(?s).*(src|href)=\"https?://.*"), "the page loads nothing from the network");
        assertTrue(Files.readString(dir.resolve("p.txt")).contains("Top allocation sites"));
    }

    private static void checkPprof(Profile p) {
        List<String> strings = p.getStringTableList();
        assertEquals("", strings.get(0));
        Function<Long, String> s = i -> strings.get(Math.toIntExact(i));
        assertEquals(List.of("alloc_objects/count", "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes"),
                p.getSampleTypeList().stream()
                .map(t -> s.apply(t.getType()) + "/" + s.apply(t.getUnit())).collect(Collectors.toList()));
        assertEquals("space/bytes", s.apply(p.getPeriodType().getType()) + "/" + s.apply(p.getPeriodType().getUnit()));
        assertEquals(65536, p.getPeriod());

        Set<Long> addresses = new HashSet<>();
        for (int i = 0; i < p.getLocationCount(); i++) {
            Location l = p.getLocation(i);
            assertEquals(i + 1, l.getId(), "dense location ids");
            assertTrue(l.getAddress() != 0, "non-zero address");
            assertTrue(addresses.add(l.getAddress()), "unique address");
        }
        for (int i = 0; i < p.getFunctionCount(); i++) {
            assertEquals(i + 1, p.getFunction(i).getId(), "dense function ids");
        }
        Map<Long, Location> locations = p.getLocationList().stream().collect(Collectors.toMap(Location::getId, l -> l));
        Map<Long, com.google.perftools.profiles.ProfileProto.Function> functions = p.getFunctionList().stream()
                .collect(Collectors.toMap(com.google.perftools.profiles.ProfileProto.Function::getId, f -> f));
        boolean sawAllocator = false;
        for (Sample sample : p.getSampleList()) {
            assertEquals(4, sample.getValueCount());
            String leaf = s.apply(functions.get(locations.get(sample.getLocationId(0)).getLine(0).getFunctionId()).getName());
            String caller = s.apply(functions.get(locations.get(sample.getLocationId(1)).getLine(0).getFunctionId()).getName());
            if (caller.equals("io.heaptap.it.workload.Allocator.allocateLongs")) {
                assertEquals("long[]", leaf, "the allocated type is the leaf frame");
                sawAllocator = true;
            }
        }
        assertTrue(sawAllocator);
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void capturesInARowWorkAndSoDoesOneAfterARefusal(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("capture", pid, "--duration", "500ms").exitCode());
            assertEquals(0, HeaptapCli.run("capture", pid, "--duration", "500ms").exitCode());

            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "2m").exitCode());
            Result refused = HeaptapCli.run("capture", pid, "--duration", "1s");
            assertEquals(5, refused.exitCode(), refused::toString);
            assertTrue(refused.stderr().contains("a capture is already running: started by heaptap start"), refused::toString);
            assertEquals(0, HeaptapCli.run("stop", pid).exitCode());

            Result after = HeaptapCli.run("capture", pid, "--duration", "500ms", "--format", "json");
            assertEquals(0, after.exitCode(), after::toString);
            assertTrue(Profiles.json(after.stdout()).get("capture").get("samples").asLong() > 0);
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void listShowsTheTargetAndWhetherHeaptapIsLoaded(Jdk jdk) throws Exception {
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String row = rowOf(HeaptapCli.run("list").out(), target.pid());
            assertTrue(row.contains(Allocator.class.getName()) && row.contains(" no "), row);
            assertTrue(row.matches("\\d+\\s+" + jdk.feature() + "[.0-9]*\\s.*"), row);
            assertEquals(0, HeaptapCli.run("status", Long.toString(target.pid())).exitCode());
            assertTrue(rowOf(HeaptapCli.run("list").out(), target.pid()).contains(" yes "));
        }
    }

    private static String rowOf(String list, long pid) {
        return list.lines().filter(l -> l.startsWith(pid + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("pid " + pid + " not listed:\n" + list));
    }

    /**
     * Issue #15, item 6: --out turned a device, a FIFO, a link and a 644 file into a 0600 regular file
     * holding the report. Devices and FIFOs are written into, links refused, hard-linked files written
     * in place, an existing file keeps its permissions; '-' and /dev/stdout are standard output.
     */
    @Test
    void outWritesOnlyWhatItMayReplaceAndStreamsIntoTheRest() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mknod needs root (the build runs as root)");
        Path dir = Paths.workDir("out-kinds");
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("capture", pid, "--duration", "500ms", "--format", "json").exitCode());

            Path fifo = dir.resolve("fifo");
            assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
            CompletableFuture<byte[]> reader = CompletableFuture.supplyAsync(() -> {
                try {
                    return Files.readAllBytes(fifo);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Result toFifo = HeaptapCli.run("dump", pid, "--format", "json", "--out", fifo.toString());
            assertEquals(0, toFifo.exitCode(), toFifo::toString);
            assertTrue(Profiles.json(reader.get(1, TimeUnit.MINUTES)).get("capture").get("samples").asLong() > 0, "the reader got it");
            assertEquals(S_IFIFO, fileType(fifo), "still a FIFO");

            Path nullCopy = dir.resolve("null");
            assertEquals(0, new ProcessBuilder("mknod", nullCopy.toString(), "c", "1", "3").start().waitFor());
            Result toNull = HeaptapCli.run("dump", pid, "--out", nullCopy.toString(), "--format", "text");
            assertEquals(0, toNull.exitCode(), toNull::toString);
            assertEquals(S_IFCHR, fileType(nullCopy), "still the null device");

            Result toFull = HeaptapCli.run("dump", pid, "--out", "/dev/full", "--format", "text");
            OneLineErrors.assertOneLineError(toFull, 2, "cannot write --out /dev/full");
            assertEquals(S_IFCHR, fileType(Path.of("/dev/full")));

            Path real = dir.resolve("real.txt");
            Path link = dir.resolve("link.txt");
            Files.createSymbolicLink(link, real);
            OneLineErrors.assertOneLineError(HeaptapCli.run("dump", pid, "--out", link.toString()), 2,
                    "is a symbolic link to " + real);
            assertTrue(Files.isSymbolicLink(link) && !Files.exists(real), "the link is left alone");

            Path first = dir.resolve("first.txt");
            Path second = dir.resolve("second.txt");
            Files.writeString(first, "old");
            Files.createLink(second, first);
            assertEquals(0, HeaptapCli.run("dump", pid, "--out", first.toString()).exitCode());
            assertTrue(Files.readString(second).contains("Top allocation sites"), "both names see the new profile");
            assertEquals(2, (Integer) Files.getAttribute(first, "unix:nlink"), "still hard-linked");

            Path shared = dir.resolve("shared.txt");
            Files.writeString(shared, "old");
            Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-r--r--"));
            assertEquals(0, HeaptapCli.run("dump", pid, "--out", shared.toString()).exitCode());
            assertTrue(Files.readString(shared).contains("Top allocation sites"));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(shared)), "permissions kept");

            for (String stdout : List.of("-", "/dev/stdout")) {
                Result r = HeaptapCli.run("dump", pid, "--out", stdout, "--format", "json");
                assertEquals(0, r.exitCode(), r::toString);
                assertTrue(Profiles.json(r.stdout()).get("capture").get("samples").asLong() > 0, stdout + " is standard output");
            }
            assertTrue(Files.isSymbolicLink(Path.of("/dev/stdout")), "/dev/stdout is still the link it was");
        }
    }

    /**
     * Every heaptap command attaches, and the JVM's Attach Listener then runs Java code for it
     * (system properties, the JMX agent): heaptap's work, which showed in the application's profile.
     * So would the threads heaptap's agent starts (the property read's warm-up, the MXBean's registration).
     */
    @Test
    void heaptapsOwnAttachWorkIsNotInTheProfile() throws Exception {
        try (TargetJvm target = TargetJvm.start(Jdk.current(), Allocator.class)) {
            String pid = Long.toString(target.pid());
            assertEquals(0, HeaptapCli.run("start", pid, "--duration", "2m", "--interval", "4k").exitCode());
            for (int i = 0; i < 5; i++) {
                assertEquals(0, HeaptapCli.run("status", pid).exitCode());
            }
            Result dump = HeaptapCli.run("dump", pid, "--format", "collapsed");
            assertEquals(0, dump.exitCode(), dump::toString);
            assertTrue(dump.out().contains("Allocator.allocateBuffer"), "the application's allocations are there");
            for (String line : dump.out().lines().toList()) {
                assertFalse(line.contains("jdk.internal.vm.VMSupport") || line.contains("jdk.internal.agent.")
                                || line.contains("io.heaptap.agent."),
                        "heaptap's attach work in the profile: " + line);
            }
        }
    }

    static final int S_IFIFO = 0010000;
    static final int S_IFCHR = 0020000;

    static int fileType(Path path) throws IOException {
        return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
    }
}
