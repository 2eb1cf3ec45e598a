package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.HumanUnits;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.CaptureInfo;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.Frame;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/**
 * Gzipped pprof (profile.proto) with Go's heap-profile conventions, so {@code go tool pprof},
 * Pyroscope, Parca and speedscope read it as they read a Go service's heap profile:
 * sample types {@code alloc_objects/count, alloc_space/bytes, inuse_objects/count,
 * inuse_space/bytes} (Go's order; in-use = the proven live estimate, see {@link LiveStats}), period type {@code space/bytes},
 * period = the sampling interval, dense ids from 1, {@code string_table[0] = ""}, and every
 * Location a stable, non-zero synthetic address (Grafana Alloy tells stacks apart by address).
 *
 * <p>A scrape ({@code scrapeLabels} not null: continuous sampling served to Pyroscope/Alloy or Parca)
 * differs in three ways, all for scrapers that subtract successive profiles: every sample carries
 * the same string labels (service, host, ...) and no per-sample count label (Alloy matches samples
 * by a hash of locations and labels, numeric ones included, so a count that grows would make every
 * sample look new); {@code time_nanos} is the profile's end (it advances with every scrape, as Go's
 * heap profile stamps "now") and {@code duration_nanos} the span it covers.
 */
final class PprofWriter implements ProfileWriter {
    private final String defaultSampleType;
    private final Map<String, String> scrapeLabels;

    /** @param defaultSampleType what pprof shows first: {@code alloc_space} (Go's allocs) or {@code inuse_space} (Go's heap) */
    PprofWriter(String defaultSampleType) {
        this(defaultSampleType, null);
    }

    /** @param scrapeLabels string labels for every sample of a scrape, or null for a capture's profile */
    PprofWriter(String defaultSampleType, Map<String, String> scrapeLabels) {
        this.defaultSampleType = defaultSampleType;
        this.scrapeLabels = scrapeLabels == null ? null : new LinkedHashMap<>(scrapeLabels);
    }

    // profile.proto field numbers
    private static final int SAMPLE_TYPE = 1, SAMPLE = 2, MAPPING = 3, LOCATION = 4, FUNCTION = 5, STRING_TABLE = 6,
            TIME_NANOS = 9, DURATION_NANOS = 10, PERIOD_TYPE = 11, PERIOD = 12, COMMENT = 13, DEFAULT_SAMPLE_TYPE = 14;

    @Override
    public void write(AllocationProfile profile, OutputStream out) throws IOException {
        GZIPOutputStream gzip = new GZIPOutputStream(out);
        gzip.write(encode(profile, defaultSampleType, scrapeLabels));
        gzip.finish();
        gzip.flush();
    }

    static byte[] encode(AllocationProfile profile, String defaultSampleType) {
        return encode(profile, defaultSampleType, null);
    }

    static byte[] encode(AllocationProfile profile, String defaultSampleType, Map<String, String> scrapeLabels) {
        Strings strings = new Strings();
        ProtoWriter p = new ProtoWriter();
        CaptureInfo info = profile.info();

        p.message(SAMPLE_TYPE, valueType(strings, "alloc_objects", "count"));
        p.message(SAMPLE_TYPE, valueType(strings, "alloc_space", "bytes"));
        p.message(SAMPLE_TYPE, valueType(strings, "inuse_objects", "count"));
        p.message(SAMPLE_TYPE, valueType(strings, "inuse_space", "bytes"));

        Map<Frame, Long> functionIds = new LinkedHashMap<>();
        Map<Frame, Long> locationIds = new LinkedHashMap<>();
        List<ProtoWriter> samples = new ArrayList<>();
        for (AllocationSite site : profile.sites()) {
            List<Frame> rootFirst = StackLines.rootFirstWithType(site);
            long[] locations = new long[rootFirst.size()];
            for (int i = 0; i < rootFirst.size(); i++) {
                Frame f = rootFirst.get(rootFirst.size() - 1 - i);  // pprof wants the leaf first
                functionIds.putIfAbsent(functionKey(f), (long) functionIds.size() + 1);
                locations[i] = locationIds.computeIfAbsent(f, k -> (long) locationIds.size() + 1);
            }
            ProtoWriter sample = new ProtoWriter()
                    .packed(1, locations)
                    .packed(2, new long[] {Math.round(site.estimatedObjects()), Math.round(site.estimatedBytes()),
                            Math.round(site.live().proven().objects().value()), Math.round(site.live().proven().bytes().value())});
            if (scrapeLabels == null) {
                sample.message(3, new ProtoWriter().uint64(1, strings.id("samples")).uint64(3, site.samples()));
            } else {
                scrapeLabels.forEach((key, value) -> sample.message(3, new ProtoWriter().uint64(1, strings.id(key))
                        .uint64(2, strings.id(value))));
            }
            samples.add(sample);
        }
        for (ProtoWriter s : samples) {
            p.message(SAMPLE, s);
        }

        p.message(MAPPING, new ProtoWriter().uint64(1, 1).uint64(2, 0).uint64(3, -1L)
                .uint64(5, strings.id("[jvm]")).bool(7, true).bool(8, true).bool(9, true));

        Set<Long> usedAddresses = new HashSet<>();
        for (Map.Entry<Frame, Long> e : locationIds.entrySet()) {
            Frame f = e.getKey();
            ProtoWriter line = new ProtoWriter().uint64(1, functionIds.get(functionKey(f))).uint64(2, Math.max(f.line(), 0));
            p.message(LOCATION, new ProtoWriter().uint64(1, e.getValue()).uint64(2, 1)
                    .uint64(3, syntheticAddress(f, usedAddresses)).message(4, line));
        }
        for (Map.Entry<Frame, Long> e : functionIds.entrySet()) {
            Frame f = e.getKey();
            p.message(FUNCTION, new ProtoWriter().uint64(1, e.getValue())
                    .uint64(2, strings.id(f.functionName())).uint64(3, strings.id(f.functionName()))
                    .uint64(4, strings.id(f.sourceFile() == null ? "" : f.sourceFile())));
        }

        long startNanos = info.startedAt().getEpochSecond() * 1_000_000_000L + info.startedAt().getNano();
        p.uint64(TIME_NANOS, scrapeLabels == null ? startNanos : startNanos + info.durationNanos());
        p.uint64(DURATION_NANOS, info.durationNanos());
        p.message(PERIOD_TYPE, valueType(strings, "space", "bytes"));
        p.uint64(PERIOD, info.intervalBytes());
        if (scrapeLabels != null) {
            StringBuilder labels = new StringBuilder("heaptap: continuous sampling since ").append(info.startedAt());
            scrapeLabels.forEach((key, value) -> labels.append(", ").append(key).append('=').append(value));
            p.uint64(COMMENT, strings.id(labels.toString()));
        }
        for (String comment : comments(profile)) {
            p.uint64(COMMENT, strings.id(comment));
        }
        p.uint64(DEFAULT_SAMPLE_TYPE, strings.id(defaultSampleType));

        // The string table goes last: every id above has been handed out by now.
        for (String s : strings.table) {
            p.string(STRING_TABLE, s);
        }
        return p.toByteArray();
    }

    static List<String> comments(AllocationProfile profile) {
        CaptureInfo info = profile.info();
        List<String> comments = new ArrayList<>();
        comments.add(String.format(Locale.ROOT, "heaptap: pid %d, %s %s", info.target().pid(), info.target().vmName(),
                info.target().javaVersion()));
        comments.add(String.format(Locale.ROOT, "heaptap: %d samples (%.0f/s) at interval %s bytes%s, depth %d; values are Poisson-weighted estimates",
                info.samples(), info.samplesPerSecond(), intervalText(info.intervals()),
                info.intervals().adaptive() ? " (target " + info.intervals().targetRate() + " samples/s)" : "", info.stackDepth()));
        comments.add("heaptap: cost: " + info.samplingCost().describe());
        comments.add("heaptap: dropped: " + TextReport.describe(info.drops()));
        comments.add(String.format(Locale.ROOT, "heaptap: live: %d tracked objects, keep-probability %.4g, %d thinnings%s",
                profile.liveInfo().tracked(), profile.liveInfo().keepProbability(), profile.liveInfo().thinnings(),
                profile.liveInfo().filter().isNone() ? "" : ", only objects " + TextReport.describe(profile.liveInfo().filter())));
        AllocationProfile.LiveTotals live = profile.liveTotals();
        comments.add(String.format(Locale.ROOT, "heaptap: inuse_* is the proven live part: objects still referenced after a whole-heap"
                        + " marking that began after their allocation (%s); not yet examined, left out: %s in %d tracked objects",
                HumanUnits.formatBytes(live.proven().bytes()), HumanUnits.formatBytes(live.unexamined().bytes().value()
                        + live.heldUnexamined().bytes().value()), live.unexamined().tracked() + live.heldUnexamined().tracked()));
        comments.add("heaptap: " + profile.liveInfo().markings().describe("capture"));
        for (String problem : profile.impossibleFigures()) {
            comments.add("heaptap: warning: " + problem);
        }
        for (String warning : info.warnings()) {
            comments.add("heaptap: warning: " + warning);
        }
        comments.add("heaptap: " + GcText.header(info.gc()));
        info.gc().alarm().ifPresent(alarm -> comments.add("heaptap: gc: " + alarm));
        for (String line : GcText.lines(info.gc(), profile.allocationRate())) {
            comments.add("heaptap: gc: " + line);
        }
        return comments;
    }

    /** Functions are per method, locations per (method, line). */
    private static Frame functionKey(Frame f) {
        return new Frame(f.className(), f.methodName(), f.sourceFile(), -1);
    }

    private static ProtoWriter valueType(Strings strings, String type, String unit) {
        return new ProtoWriter().uint64(1, strings.id(type)).uint64(2, strings.id(unit));
    }

    /**
     * A stable address from the frame's name and line: the same frame gets the same address in
     * every profile of every JVM, so scrapers can merge by address. Never zero, never reused.
     */
    static long syntheticAddress(Frame f, Set<Long> used) {
        long h = 0xcbf29ce484222325L;
        for (char c : (f.functionName() + ":" + f.sourceFile() + ":" + f.line()).toCharArray()) {
            h = (h ^ c) * 0x100000001b3L;
        }
        long address = (h & 0x0000_FFFF_FFFF_FFF0L) | 0x1000L;  // positive, aligned, far from 0
        while (!used.add(address)) {
            address += 0x10;
        }
        return address;
    }

    private static final class Strings {
        final List<String> table = new ArrayList<>(List.of(""));
        final Map<String, Long> ids = new HashMap<>(Map.of("", 0L));

        long id(String s) {
            return ids.computeIfAbsent(s, k -> {
                table.add(k);
                return (long) table.size() - 1;
            });
        }
    }

    private static String intervalText(IntervalRange range) {
        return range.minBytes() == range.maxBytes() ? Long.toString(range.minBytes()) : range.minBytes() + "-" + range.maxBytes();
    }
}
