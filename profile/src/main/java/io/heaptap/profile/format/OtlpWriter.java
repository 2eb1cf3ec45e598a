package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.Frame;
import io.heaptap.profile.TargetInfo;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * OpenTelemetry profiles (opentelemetry-proto 1.10, {@code profiles/v1development}, public alpha):
 * one {@code ProfilesData} message, uncompressed. Its fields are those of the collector's
 * {@code ExportProfilesServiceRequest} with the same numbers, so the same bytes are the body an
 * OTLP/HTTP receiver takes at {@code /v1development/profiles} ({@code application/x-protobuf}).
 *
 * <p>An OTLP profile has one sample type, so the four of the pprof format are four profiles over
 * one shared dictionary: {@code alloc_space/bytes} first (consumers show {@code profiles[0]} by
 * default, as pprof shows its default sample type), then {@code alloc_objects/count},
 * {@code inuse_space/bytes}, {@code inuse_objects/count}; in use is the proven live estimate, as in
 * pprof. Each has the capture's start, duration and period ({@code space/bytes}, the interval).
 * Values are Poisson-weighted estimates; each sample carries how many samples
 * ({@code heaptap.samples}) or proven tracked objects ({@code heaptap.tracked}) stand behind it.
 * Samples whose value rounds to zero are left out. The resource says which JVM: the main class or
 * jar as {@code service.name} (never the command's arguments, which may hold secrets), the pid, the VM;
 * continuous sampling's push gives the service its scrapes carry, and the host's name.
 */
final class OtlpWriter implements ProfileWriter {
    // field numbers of profiles.proto, resource.proto and common.proto (opentelemetry-proto 1.10)
    private static final int RESOURCE_PROFILES = 1, DICTIONARY = 2;
    private static final int RESOURCE = 1, SCOPE_PROFILES = 2;
    private static final int SCOPE = 1, PROFILES = 2;
    private static final int SAMPLE_TYPE = 1, SAMPLES = 2, TIME_UNIX_NANO = 3, DURATION_NANO = 4, PERIOD_TYPE = 5, PERIOD = 6;
    private static final int STACK_INDEX = 1, ATTRIBUTE_INDICES = 2, VALUES = 4;

    /** {@code service.name}, or null for the main class or jar; {@code host.name}, or null for none. */
    private final String service;
    private final String host;

    OtlpWriter() {
        this(null, null);
    }

    OtlpWriter(String service, String host) {
        this.service = service;
        this.host = host;
    }

    @Override
    public void write(AllocationProfile profile, OutputStream out) throws IOException {
        out.write(encode(profile, service, host));
        out.flush();
    }

    static byte[] encode(AllocationProfile profile) {
        return encode(profile, null, null);
    }

    static byte[] encode(AllocationProfile profile, String service, String host) {
        OtlpDictionary dictionary = new OtlpDictionary();
        List<Site> sites = new ArrayList<>(profile.sites().size());
        for (AllocationSite site : profile.sites()) {
            List<Frame> leafFirst = new ArrayList<>(StackLines.rootFirstWithType(site));
            Collections.reverse(leafFirst);
            sites.add(new Site(site, dictionary.stack(leafFirst)));
        }

        ProtoWriter scope = new ProtoWriter().message(SCOPE, scope());
        CaptureInfo info = profile.info();
        scope.message(PROFILES, profile(dictionary, info, sites, "alloc_space", "bytes", "heaptap.samples",
                s -> Math.round(s.site.estimatedBytes()), s -> s.site.samples()));
        scope.message(PROFILES, profile(dictionary, info, sites, "alloc_objects", "count", "heaptap.samples",
                s -> Math.round(s.site.estimatedObjects()), s -> s.site.samples()));
        scope.message(PROFILES, profile(dictionary, info, sites, "inuse_space", "bytes", "heaptap.tracked",
                s -> Math.round(s.site.live().proven().bytes().value()), s -> s.site.live().proven().tracked()));
        scope.message(PROFILES, profile(dictionary, info, sites, "inuse_objects", "count", "heaptap.tracked",
                s -> Math.round(s.site.live().proven().objects().value()), s -> s.site.live().proven().tracked()));

        ProtoWriter resourceProfiles = new ProtoWriter().message(RESOURCE, resource(info.target(), service, host)).message(SCOPE_PROFILES, scope);
        return new ProtoWriter().message(RESOURCE_PROFILES, resourceProfiles).message(DICTIONARY, dictionary.encode()).toByteArray();
    }

    private static ProtoWriter profile(OtlpDictionary dictionary, CaptureInfo info, List<Site> sites, String type, String unit,
                                       String countKey, ToLongFunction<Site> value, ToLongFunction<Site> count) {
        ProtoWriter p = new ProtoWriter().message(SAMPLE_TYPE, valueType(dictionary, type, unit));
        for (Site s : sites) {
            long v = value.applyAsLong(s);
            if (v != 0) {
                p.message(SAMPLES, new ProtoWriter().uint64(STACK_INDEX, s.stack)
                        .packed(ATTRIBUTE_INDICES, new long[] {dictionary.attribute(countKey, count.applyAsLong(s), "count")})
                        .packed(VALUES, new long[] {v}));
            }
        }
        long startNanos = info.startedAt().getEpochSecond() * 1_000_000_000L + info.startedAt().getNano();
        return p.fixed64(TIME_UNIX_NANO, startNanos).uint64(DURATION_NANO, info.durationNanos())
                .message(PERIOD_TYPE, valueType(dictionary, "space", "bytes")).uint64(PERIOD, info.intervalBytes());
    }

    private static ProtoWriter scope() {
        ProtoWriter scope = new ProtoWriter().string(1, "heaptap");
        return Version.OF_THIS.isEmpty() ? scope : scope.string(2, Version.OF_THIS);
    }

    private static ProtoWriter valueType(OtlpDictionary dictionary, String type, String unit) {
        return new ProtoWriter().uint64(1, dictionary.string(type)).uint64(2, dictionary.string(unit));
    }

    /** Resource attributes of the OpenTelemetry semantic conventions. */
    private static ProtoWriter resource(TargetInfo target, String service, String host) {
        ProtoWriter resource = new ProtoWriter()
                .message(1, keyValue("service.name", new ProtoWriter().string(1, service == null ? target.serviceName() : service)));
        if (host != null) {
            resource.message(1, keyValue("host.name", new ProtoWriter().string(1, host)));
        }
        return resource.message(1, keyValue("process.pid", new ProtoWriter().oneofUint64(3, target.pid())))
                .message(1, keyValue("process.runtime.name", new ProtoWriter().string(1, nonNull(target.vmName()))))
                .message(1, keyValue("process.runtime.version", new ProtoWriter().string(1, nonNull(target.javaVersion()))));
    }

    private static ProtoWriter keyValue(String key, ProtoWriter anyValue) {
        return new ProtoWriter().string(1, key).message(2, anyValue);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    private record Site(AllocationSite site, int stack) {
    }

    /** heaptap's version from its jar's manifest, for the instrumentation scope; empty when run from classes. */
    private static final class Version {
        static final String OF_THIS = OtlpWriter.class.getPackage() == null ? ""
                : nonNull(OtlpWriter.class.getPackage().getImplementationVersion());
    }
}
