package io.heaptap.it.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.HeaptapCli.Result;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.Profiles;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Allocator;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesData;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --format otlp} from real JVMs, read with the official generated classes of
 * opentelemetry-proto 1.10.0-alpha: what an OpenTelemetry Collector's OTLP receiver decodes.
 */
class OtlpIT {

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aCaptureInOtlpDecodesWithTheOfficialProto(Jdk jdk) throws Exception {
        Path dir = Paths.workDir("otlp-" + jdk.feature());
        Path byExtension = dir.resolve("p.otlp.pb");
        Path byFlag = dir.resolve("again.data");
        Path json = dir.resolve("p.json");
        try (TargetJvm target = TargetJvm.start(jdk, Allocator.class)) {
            String pid = Long.toString(target.pid());
            Result capture = HeaptapCli.run("capture", pid, "--duration", "1s", "--interval", "64k", "--out", byExtension.toString());
            assertEquals(0, capture.exitCode(), capture::toString);
            Result dump = HeaptapCli.run("dump", pid, "--format", "otlp", "--out", byFlag.toString());
            assertEquals(0, dump.exitCode(), dump::toString);
            assertEquals(0, HeaptapCli.run("dump", pid, "--out", json.toString()).exitCode());

            byte[] bytes = Files.readAllBytes(byExtension);
            ProfilesData data = ProfilesData.parseFrom(bytes);
            assertArrayEquals(bytes, data.toByteArray(), "every field known to the official proto, in its place");
            assertEquals(data.getResourceProfilesList(), ExportProfilesServiceRequest.parseFrom(bytes).getResourceProfilesList(),
                    "the file is also an OTLP/HTTP request body");
            checkResource(data, target.pid(), jdk);
            checkProfiles(data, Profiles.json(json));
            ProfilesData again = ProfilesData.parseFrom(Files.readAllBytes(byFlag));
            assertEquals(samples(data, 0), samples(again, 0), "a dump after the capture has the capture's allocations");
        }
    }

    private static void checkResource(ProfilesData data, long pid, Jdk jdk) {
        Map<String, AnyValue> resource = data.getResourceProfiles(0).getResource().getAttributesList().stream()
                .collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
        assertEquals(Allocator.class.getName(), resource.get("service.name").getStringValue());
        assertEquals(pid, resource.get("process.pid").getIntValue());
        assertTrue(resource.get("process.runtime.version").getStringValue().startsWith(Integer.toString(jdk.feature())),
                resource.toString());
        assertTrue(!resource.get("process.runtime.name").getStringValue().isEmpty());
    }

    private static void checkProfiles(ProfilesData data, JsonNode json) {
        ProfilesDictionary d = data.getDictionary();
        List<Profile> profiles = data.getResourceProfiles(0).getScopeProfiles(0).getProfilesList();
        assertEquals(List.of("alloc_space/bytes", "alloc_objects/count", "inuse_space/bytes", "inuse_objects/count"),
                profiles.stream().map(p -> d.getStringTable(p.getSampleType().getTypeStrindex()) + "/"
                        + d.getStringTable(p.getSampleType().getUnitStrindex())).toList());
        for (Profile p : profiles) {
            assertEquals("space/bytes", d.getStringTable(p.getPeriodType().getTypeStrindex()) + "/"
                    + d.getStringTable(p.getPeriodType().getUnitStrindex()));
            assertEquals(65536, p.getPeriod());
            assertTrue(p.getDurationNano() >= 900_000_000L, "about the 1 s capture: " + p.getDurationNano());
            assertTrue(p.getTimeUnixNano() > 0);
        }
        Map<List<String>, Long> allocSpace = samples(data, 0);
        assertTrue(allocSpace.keySet().stream().anyMatch(stack -> stack.size() > 1 && stack.get(0).equals("long[]")
                        && stack.get(1).equals("io.heaptap.it.workload.Allocator.allocateLongs")),
                "the allocated type is the leaf, its allocating method next: " + allocSpace.keySet());
        long total = allocSpace.values().stream().mapToLong(Long::longValue).sum();
        double expected = json.get("totals").get("estimatedBytes").asDouble();
        assertEquals(expected, total, json.get("sites").size(), "alloc_space sums to the JSON dump's estimated bytes");
    }

    /** Profile {@code index}'s samples as stacks of function names, leaf first, with their values. */
    private static Map<List<String>, Long> samples(ProfilesData data, int index) {
        ProfilesDictionary d = data.getDictionary();
        Map<List<String>, Long> out = new java.util.LinkedHashMap<>();
        for (Sample s : data.getResourceProfiles(0).getScopeProfiles(0).getProfiles(index).getSamplesList()) {
            List<String> names = new ArrayList<>();
            for (int i : d.getStackTable(s.getStackIndex()).getLocationIndicesList()) {
                Location l = d.getLocationTable(i);
                assertTrue(l.getAddress() != 0, "a stable non-zero address, as in pprof");
                names.add(d.getStringTable(d.getFunctionTable(l.getLines(0).getFunctionIndex()).getNameStrindex()));
            }
            out.merge(names, s.getValues(0), Long::sum);
        }
        return out;
    }
}
