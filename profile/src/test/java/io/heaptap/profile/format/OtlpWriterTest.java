package io.heaptap.profile.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.TargetInfo;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Function;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Line;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesData;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * The otlp writer's output read back with the official generated classes of opentelemetry-proto
 * 1.10.0-alpha: tables, stacks, sample types and values against the profile model.
 */
class OtlpWriterTest {
    private static final List<String> TYPES = List.of("alloc_space/bytes", "alloc_objects/count", "inuse_space/bytes",
            "inuse_objects/count");

    private static ProfilesData decode(AllocationProfile profile) throws Exception {
        return ProfilesData.parseFrom(ProfileWriter.toBytes(profile, ProfileFormat.OTLP));
    }

    /**
     * Protobuf's own encoding of the decoded message gives back the same bytes: no field heaptap
     * wrote is unknown to the official proto, none is out of place, and zero values are left out
     * as proto3 wants. The same bytes are an ExportProfilesServiceRequest, the OTLP/HTTP body.
     */
    @Test
    void theOfficialClassesReadEveryFieldAndWriteTheSameBytes() throws Exception {
        byte[] bytes = ProfileWriter.toBytes(WritersTest.profile(), ProfileFormat.OTLP);
        ProfilesData data = ProfilesData.parseFrom(bytes);
        assertArrayEquals(bytes, data.toByteArray());
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(bytes);
        assertArrayEquals(bytes, request.toByteArray());
        assertEquals(data.getResourceProfilesList(), request.getResourceProfilesList());
        assertEquals(data.getDictionary(), request.getDictionary());
    }

    @Test
    void dictionaryTablesStartWithTheirZeroValueAndHaveNoDuplicates() throws Exception {
        ProfilesDictionary d = decode(WritersTest.profile()).getDictionary();
        assertEquals("", d.getStringTable(0));
        assertEquals(d.getMappingTable(0).getDefaultInstanceForType(), d.getMappingTable(0));
        assertEquals(d.getLocationTable(0).getDefaultInstanceForType(), d.getLocationTable(0));
        assertEquals(d.getFunctionTable(0).getDefaultInstanceForType(), d.getFunctionTable(0));
        assertEquals(d.getLinkTable(0).getDefaultInstanceForType(), d.getLinkTable(0));
        assertEquals(d.getAttributeTable(0).getDefaultInstanceForType(), d.getAttributeTable(0));
        assertEquals(d.getStackTable(0).getDefaultInstanceForType(), d.getStackTable(0));
        assertEquals(d.getStringTableCount(), new HashSet<>(d.getStringTableList()).size(), "strings are unique");
        assertEquals(d.getFunctionTableCount(), new HashSet<>(d.getFunctionTableList()).size(), "functions are unique");
        assertEquals(d.getLocationTableCount(), new HashSet<>(d.getLocationTableList()).size(), "locations are unique");
        assertEquals(d.getStackTableCount(), new HashSet<>(d.getStackTableList()).size(), "stacks are unique");
        // Functions per method, locations per (method, line): Main.main, Cache.put, Parser.parse, three
        // types and two synthetic roots, each once.
        assertEquals(1 + 8, d.getFunctionTableCount());
        assertEquals(1 + 8, d.getLocationTableCount());
        Location main = d.getLocationTableList().stream().skip(1).filter(l -> name(d, l).equals("app.Main.main")).findFirst().orElseThrow();
        assertEquals(10, main.getLines(0).getLine());
        assertEquals("Main.java", d.getStringTable(d.getFunctionTable(main.getLines(0).getFunctionIndex()).getFilenameStrindex()));
        assertEquals("[jvm]", d.getStringTable(d.getMappingTable(main.getMappingIndex()).getFilenameStrindex()));
        assertTrue(main.getAddress() != 0, "a stable synthetic address, as in pprof");
        KeyValueAndUnit frameType = d.getAttributeTable(main.getAttributeIndices(0));
        assertEquals("profile.frame.type", d.getStringTable(frameType.getKeyStrindex()));
        assertEquals("jvm", frameType.getValue().getStringValue());
    }

    @Test
    void fourProfilesOneSampleTypeEachWithTheCapturesTimeAndPeriod() throws Exception {
        ProfilesData data = decode(WritersTest.profile());
        ProfilesDictionary d = data.getDictionary();
        List<Profile> profiles = data.getResourceProfiles(0).getScopeProfiles(0).getProfilesList();
        assertEquals(TYPES, profiles.stream().map(p -> d.getStringTable(p.getSampleType().getTypeStrindex()) + "/"
                + d.getStringTable(p.getSampleType().getUnitStrindex())).toList());
        for (Profile p : profiles) {
            assertEquals(1_795_255_200_000_000_000L, p.getTimeUnixNano(), "2026-11-21T10:00:00Z");
            assertEquals(30_000_000_000L, p.getDurationNano());
            assertEquals("space", d.getStringTable(p.getPeriodType().getTypeStrindex()));
            assertEquals("bytes", d.getStringTable(p.getPeriodType().getUnitStrindex()));
            assertEquals(524_288, p.getPeriod());
        }
        assertEquals("heaptap", data.getResourceProfiles(0).getScopeProfiles(0).getScope().getName());
    }

    /** Leaf first: the allocated type, then the innermost method; a cut stack ends at "[truncated]". */
    @Test
    void stacksAreLeafFirstWithTheTypeAsLeaf() throws Exception {
        ProfilesData data = decode(WritersTest.profile());
        Map<List<String>, Long> allocSpace = samples(data, 0);
        assertEquals(Map.of(
                List.of("app.Entry", "app.Cache.put", "app.Main.main"), 64_000_001L,
                List.of("byte[]", "app.Parser.parse", "app.Main.main", "[truncated]"), 128_000_000L,
                List.of("java.lang.String", "[no-stack]"), 240L), allocSpace);
        assertEquals(Map.of(List.of("app.Entry", "app.Cache.put", "app.Main.main"), 1000L), samples(data, 3),
                "in use is the proven live estimate; sites with nothing proven live have no sample");
    }

    @Test
    void samplesSayHowManySamplesOrTrackedObjectsStandBehindThem() throws Exception {
        ProfilesData data = decode(WritersTest.profile());
        ProfilesDictionary d = data.getDictionary();
        List<Profile> profiles = data.getResourceProfiles(0).getScopeProfiles(0).getProfilesList();
        List<String> allocCounts = new ArrayList<>();
        for (Sample s : profiles.get(0).getSamplesList()) {
            KeyValueAndUnit a = d.getAttributeTable(s.getAttributeIndices(0));
            allocCounts.add(d.getStringTable(a.getKeyStrindex()) + "=" + a.getValue().getIntValue() + " "
                    + d.getStringTable(a.getUnitStrindex()));
        }
        assertEquals(List.of("heaptap.samples=100 count", "heaptap.samples=200 count", "heaptap.samples=1 count"), allocCounts);
        KeyValueAndUnit tracked = d.getAttributeTable(profiles.get(2).getSamples(0).getAttributeIndices(0));
        assertEquals("heaptap.tracked", d.getStringTable(tracked.getKeyStrindex()));
        assertEquals(1, tracked.getValue().getIntValue());
    }

    /** Each profile's total is the model's, to rounding: nothing lost, nothing counted twice. */
    @Test
    void totalsMatchTheProfileModel() throws Exception {
        AllocationProfile profile = WritersTest.profile();
        ProfilesData data = decode(profile);
        List<ToDoubleFunction<AllocationSite>> model = List.of(AllocationSite::estimatedBytes, AllocationSite::estimatedObjects,
                s -> s.live().proven().bytes().value(), s -> s.live().proven().objects().value());
        for (int i = 0; i < 4; i++) {
            double expected = profile.sites().stream().mapToDouble(model.get(i)).sum();
            long total = samples(data, i).values().stream().mapToLong(Long::longValue).sum();
            assertEquals(expected, total, profile.sites().size(), TYPES.get(i));
        }
        assertEquals(Math.round(profile.totals().estimatedBytes()), samples(data, 0).values().stream().mapToLong(Long::longValue).sum(),
                1.0);
    }

    @Test
    void theResourceNamesTheJvmButNotItsArguments() throws Exception {
        TargetInfo target = new TargetInfo(77, "17.0.9", "OpenJDK 64-Bit Server VM", "/opt/app/orders-service.jar --db-password=s3cret");
        AllocationProfile p = WritersTest.profile();
        AllocationProfile profile = new AllocationProfile(new io.heaptap.profile.CaptureInfo(target, p.info().startedAt(),
                p.info().durationNanos(), p.info().intervalBytes(), p.info().stackDepth(), p.info().samples(), p.info().drops(),
                p.info().warnings(), p.info().gc()), p.liveInfo(), p.sites());
        ProfilesData data = decode(profile);
        Map<String, AnyValue> attributes = data.getResourceProfiles(0).getResource().getAttributesList().stream()
                .collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue, (a, b) -> a, LinkedHashMap::new));
        assertEquals("orders-service", attributes.get("service.name").getStringValue());
        assertEquals(77, attributes.get("process.pid").getIntValue());
        assertEquals("OpenJDK 64-Bit Server VM", attributes.get("process.runtime.name").getStringValue());
        assertEquals("17.0.9", attributes.get("process.runtime.version").getStringValue());
        assertTrue(!data.toString().contains("s3cret"), "the command's arguments stay out");
        assertEquals("app.Main", new TargetInfo(1, "", "", "app.Main arg").serviceName());
        assertEquals("java", new TargetInfo(1, "", "", null).serviceName());
    }

    /** Continuous sampling's push names the service its scrapes carry (not the main class) and the host. */
    @Test
    void thePushNamesTheServiceAndHostItIsGiven() throws Exception {
        ProfilesData data = ProfilesData.parseFrom(ProfileWriter.otlpPush(WritersTest.profile(), "checkout", "node-7"));
        Map<String, AnyValue> attributes = data.getResourceProfiles(0).getResource().getAttributesList().stream()
                .collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue, (a, b) -> a, LinkedHashMap::new));
        assertEquals("checkout", attributes.get("service.name").getStringValue());
        assertEquals("node-7", attributes.get("host.name").getStringValue());
        assertTrue(attributes.containsKey("process.pid"));
        assertEquals(decode(WritersTest.profile()).getResourceProfiles(0).getScopeProfilesList(),
                data.getResourceProfiles(0).getScopeProfilesList(), "the same profiles; only the resource differs");
        ProfilesData file = decode(WritersTest.profile());
        assertTrue(file.getResourceProfiles(0).getResource().getAttributesList().stream().noneMatch(a -> a.getKey().equals("host.name")),
                "a file names no host");
    }

    @Test
    void anEmptyProfileIsValidWithNoSamples() throws Exception {
        AllocationProfile p = WritersTest.profile();
        ProfilesData data = decode(new AllocationProfile(p.info(), p.liveInfo(), List.of()));
        assertEquals(4, data.getResourceProfiles(0).getScopeProfiles(0).getProfilesCount());
        assertEquals(0, data.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getSamplesCount());
        assertEquals(1, data.getDictionary().getStackTableCount(), "just the zero stack");
    }

    @Test
    void otlpFileNames() {
        assertEquals(Optional.of(ProfileFormat.OTLP), ProfileFormat.fromFileName("x.otlp.pb"));
        assertEquals(Optional.of(ProfileFormat.OTLP), ProfileFormat.fromFileName("x.otlp"));
        assertEquals(Optional.of(ProfileFormat.PPROF), ProfileFormat.fromFileName("x.pb"));
        assertEquals(ProfileFormat.OTLP, ProfileFormat.parse("otlp"));
        assertArrayEquals(new byte[] {0x19, 1, 0, 0, 0, 0, 0, 0, (byte) 0x80}, new ProtoWriter().fixed64(3, 0x8000_0000_0000_0001L).toByteArray());
    }

    /** Profile {@code index}'s samples as stacks of function names, leaf first, with their values. */
    static Map<List<String>, Long> samples(ProfilesData data, int index) {
        ProfilesDictionary d = data.getDictionary();
        Map<List<String>, Long> out = new LinkedHashMap<>();
        for (Sample s : data.getResourceProfiles(0).getScopeProfiles(0).getProfiles(index).getSamplesList()) {
            List<String> names = new ArrayList<>();
            for (int location : d.getStackTable(s.getStackIndex()).getLocationIndicesList()) {
                names.add(name(d, d.getLocationTable(location)));
            }
            assertEquals(1, s.getValuesCount(), "one value per sample: a profile has one sample type");
            out.merge(names, s.getValues(0), Long::sum);
        }
        return out;
    }

    static String name(ProfilesDictionary d, Location location) {
        Line line = location.getLines(0);
        Function f = d.getFunctionTable(line.getFunctionIndex());
        return d.getStringTable(f.getNameStrindex());
    }
}
