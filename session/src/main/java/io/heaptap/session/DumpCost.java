package io.heaptap.session;

import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.wire.SiteCounters;

/**
 * The most heap a dump takes in the target, estimated from the agent's table sizes before anything
 * is decoded, so that a dump too big for {@link HeapBudget} is refused before it costs anything.
 * Each figure is the size of what is held at once at the busiest moment (object headers, the copies
 * a stack goes through while decoding, an encoder's intermediate maps, a growing output buffer and
 * its final copy), rounded up; DumpCostTest checks them against measured decodes and outputs.
 * Stack frames dominate: a decoded profile costs about 8 bytes per frame of every site, a JSON
 * document about 4 times its own size.
 */
final class DumpCost {
    private static final long CHUNKS = 64 * 1024 + 8 * 1024;  // the native chunk and the decoder's buffer
    private static final long PAGE = 4L << 20;  // the HTML page's script and template, and their copies
    /** Sites a table may gain between reading its sizes and taking the snapshot (a few microseconds). */
    static final long SITES_GROWN = 1024;
    /** A site's difference: the AllocationSite record and two list slots. */
    private static final long DELTA_BYTES_PER_SITE = 96;

    private DumpCost() {
    }

    /** Decoding the snapshot into a profile. */
    static long decode(TableSizes t) {
        Shape s = Shape.of(t);
        return CHUNKS + 48 * t.classes() + 2 * t.classBytes() + 160 * t.methods() + 2 * t.methodNameBytes()
                + 8 * t.lineEntries() + 40 * t.frames() + 40 * t.stacks() + 4 * t.stackFrames()
                + t.sites() * (300 + s.classNameLength) + 4 * s.siteFrames + 80 * t.weakRefs();
    }

    /** Decoding, then encoding in a format, with the output held as a byte array. */
    static long decodeAndEncode(TableSizes t, ProfileFormat format) {
        Shape s = Shape.of(t);
        long encode = switch (format) {
            case TEXT -> 64 * 1024 + 48 * t.sites();
            // OTLP holds pprof's tables plus a stack table, with one value per sample instead of four
            case PPROF, OTLP -> 180 * t.sites() + 6 * s.siteFrames + 400 * t.frames()
                    + 3 * (3 * s.siteFrames + 70 * t.sites() + 100 * t.frames() + 2 * t.methodNameBytes());
            case COLLAPSED -> 4 * (s.siteFrames * (s.nameLength + 1) + t.sites() * (s.classNameLength + 24)) + 80 * t.sites();
            case JSON -> 4 * (s.siteFrames * (s.nameLength + 60) + t.sites() * 700);
            case HTML -> PAGE + 2 * (s.siteFrames + t.sites()) * (250 + s.nameLength);
        };
        return decode(t) + encode;
    }

    /**
     * A delta's baseline ({@link io.heaptap.wire.SiteCounters}): the counters of every site, read
     * through the native chunk and the stream's buffer, with room for {@value #SITES_GROWN} sites made
     * between this estimate and the snapshot. Once read, the baseline keeps only the counters' exact size.
     */
    static long counters(TableSizes t) {
        return CHUNKS + SiteCounters.bytesFor(t.sites() + SITES_GROWN);
    }

    /**
     * A capture's window over continuous sampling of {@code maxStacks} stacks: its start's and its end's
     * counters, each of at most as many sites as the agent keeps for that many stacks (limits.h's
     * limitsForStacks: 4 a stack, at least 4,096, at most 262,144), read through the native chunk.
     * Reserved before it starts, so that its end always fits.
     */
    static long window(int maxStacks) {
        return windowEnd(maxStacks) + SiteCounters.bytesFor(maxSites(maxStacks));
    }

    /** What a window keeps once its start is read: room to read its end. */
    static long windowEnd(int maxStacks) {
        return CHUNKS + SiteCounters.bytesFor(maxSites(maxStacks));
    }

    private static long maxSites(int maxStacks) {
        return Math.max(4096, Math.min(4L * maxStacks, 1 << 18));
    }

    /** Decoding and encoding a delta: as {@link #decodeAndEncode}, plus the sites' second copy with the differences. */
    static long deltaAndEncode(TableSizes t, ProfileFormat format) {
        return decodeAndEncode(t, format) + DELTA_BYTES_PER_SITE * t.sites();
    }

    /**
     * @param siteFrames      frames of all sites' stacks together (a stack shared by sites of
     *                        several classes is copied for each)
     * @param nameLength      bytes of a method's names (class, method, source file), on average
     * @param classNameLength bytes of an allocated class's name, on average
     */
    private record Shape(long siteFrames, long nameLength, long classNameLength) {
        static Shape of(TableSizes t) {
            long depth = t.stackFrames() / Math.max(1, t.stacks()) + 1;
            long siteFrames = t.stackFrames() + Math.max(0, t.sites() - t.stacks()) * depth;
            return new Shape(siteFrames, t.methodNameBytes() / Math.max(1, t.methods()) + 1,
                    t.classBytes() / Math.max(1, t.classes()) + 1);
        }
    }
}
