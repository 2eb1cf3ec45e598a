package io.heaptap.session;

import io.heaptap.wire.options.PathOptions;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.PathSearch;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.census.DumpCensus;
import io.heaptap.profile.census.DumpCensusJson;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.wire.CounterWindow;
import io.heaptap.wire.DumpHeader;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.RawDump;
import io.heaptap.wire.SiteCounters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Every way the counters are read: a decoded profile (of a capture, of continuous sampling, or the
 * difference from a baseline), a raw dump for the CLI to decode, and reference paths. Each read
 * reserves what it will build from heaptap's heap budget before building it, and takes the snapshot
 * under the session's lock ({@link Sampling}'s), so no start, stop or reset changes the counters
 * under it; it never waits for the budget while holding that lock.
 */
final class ProfileReader {
    private final Sampling sampling;
    private final HeapBudget budget;
    private final RawDumps rawDumps;
    /** Delta baselines not yet closed, each holding its share of the budget; closed early when their counters end. */
    private final Set<DeltaBaseline> baselines = ConcurrentHashMap.newKeySet();
    /** How to get a profile that heaptap cannot build within its heap budget. */
    private final String instead;
    private final Censuses censuses;

    /** The census a dump takes right after its forced collection, given when the dump began. */
    interface Censuses {
        DumpCensus take(long beganNanos);
    }

    ProfileReader(Sampling sampling, HeapBudget budget, RawDumps rawDumps, long pid, Censuses censuses) {
        this.sampling = sampling;
        this.budget = budget;
        this.rawDumps = rawDumps;
        this.censuses = censuses;
        this.instead = "the CLI ('heaptap dump " + pid + "') fetches the capture undecoded and encodes it outside this JVM;"
                + " or capture with fewer --max-stacks, a smaller --depth or --live-budget";
    }

    /** See {@link Controller#withProfile}. */
    <T> T withProfile(LiveFilter filter, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return withinBudget(() -> {
            AllocationProfile profile = profileNow(filter, gc, null, gc && format != null && format.showsCensus());
            sampling.fetched();
            return profile;
        }, format, false, use);
    }

    /** See {@link Controller#peekProfile}. */
    <T> T peekProfile(Function<AllocationProfile, T> use) {
        if (sampling.state() == SessionState.IDLE) {
            return use.apply(null);  // no capture (and perhaps no agent) to reserve for
        }
        return withinBudget(() -> sampling.state() == SessionState.IDLE ? null : profileNow(LiveFilter.NONE, false, null),
                null, false, use);
    }

    /** See {@link Controller#withScrapedCaptureProfile}. */
    <T> T withScrapedCaptureProfile(Instant at, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return withinBudget(() -> {
            sampling.stopIfStartedAt(at, Sampling.TIME_BOX_ENDED);
            Capture capture = sampling.capture();
            if (capture == null || !at.equals(capture.startedAt())) {
                throw new SessionConflictException("the capture this scrape started was replaced during its window"
                        + (capture == null ? "" : " by one started by " + capture.startedBy()) + "; retry");
            }
            return profileNow(LiveFilter.NONE, gc, null);
        }, format, false, use);
    }

    /** See {@link Controller#withContinuousProfile}. */
    <T> T withContinuousProfile(LiveFilter filter, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return withinBudget(() -> continuousProfileNow(filter, gc, null), format, false, use);
    }

    /** See {@link Controller#withDeltaProfile}. */
    <T> T withDeltaProfile(DeltaBaseline since, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return withinBudget(() -> since.continuous() ? continuousProfileNow(LiveFilter.NONE, gc, since)
                : profileNow(LiveFilter.NONE, gc, since), format, true, use);
    }

    /**
     * {@code make} (called holding the session's lock) and {@code use} within a reservation of heaptap's heap
     * budget for both; {@code delta}: {@code make} builds a delta, whose sites are copied once more.
     */
    private <T> T withinBudget(Supplier<AllocationProfile> make, ProfileFormat format, boolean delta,
                               Function<AllocationProfile, T> use) {
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork();
             HeapBudget.Reservation reserved = reserve(format, delta, !Thread.holdsLock(sampling))) {  // never wait holding the lock
            AllocationProfile profile;
            synchronized (sampling) {
                profile = make.get();
            }
            return use.apply(profile);
        } catch (OutOfMemoryError e) {
            // Everything built for the request is unreachable again: the application keeps its heap.
            throw new HeapBudgetException("this JVM ran out of heap while heaptap built " + what(format) + "; " + instead);
        }
    }

    /** See {@link Controller#deltaBaseline}. */
    DeltaBaseline deltaBaseline(boolean continuous, ProfileFormat format) {
        TableSizes sizes = sampling.snapshots().tableSizes();
        // Kept for the whole window, beside room for its end (and every other request) to decode.
        HeapBudget.Reservation reserved = budget.reserveKept(DumpCost.counters(sizes), DumpCost.deltaAndEncode(sizes, format),
                "a delta scrape's baseline", instead);
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            synchronized (sampling) {
                DumpHeader header = continuous ? sampling.continuousHeader(sampling.requireContinuous(), new ArrayList<>(), LiveProof.NONE)
                        : sampling.header(new ArrayList<>(), LiveProof.NONE);
                SiteCounters counters = sampling.snapshots().counters();
                reserved.keepOnly(counters.heapBytes());  // the reading buffers are gone; the counters' size is exact
                DeltaBaseline baseline = new DeltaBaseline(continuous, header, counters, reserved, baselines::remove);
                baselines.add(baseline);
                return baseline;
            }
        } catch (IOException e) {
            reserved.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            reserved.close();
            throw e;
        }
    }

    /** A delta's encoding, and the baseline of the next delta, taken from the same snapshot. */
    record Chained<T>(T value, DeltaBaseline next) {
    }

    /**
     * Continuous sampling's delta since {@code since}, encoded by {@code use}, and the baseline the next
     * delta starts from, made from the same snapshot: chained deltas neither lose nor repeat a sample.
     * The new baseline holds its share of the budget until closed, as {@link #deltaBaseline}'s does;
     * {@code since} is left open (close it when done with it).
     */
    <T> Chained<T> withChainedDelta(DeltaBaseline since, ProfileFormat format, String what, Function<AllocationProfile, T> use) {
        TableSizes sizes = sampling.snapshots().tableSizes();
        HeapBudget.Reservation kept = budget.reserveKept(DumpCost.counters(sizes), DumpCost.deltaAndEncode(sizes, format), what,
                instead);
        DeltaBaseline[] next = new DeltaBaseline[1];
        try {
            T value = withinBudget(() -> {
                ContinuousReading now = continuousReading(LiveFilter.NONE, false, since,
                        "continuous sampling was restarted since the last delta");
                AllocationProfile delta = since.delta(now.header(), now.snapshot(), CounterWindow.ALL);
                SiteCounters counters = SiteCounters.of(now.snapshot());
                kept.keepOnly(counters.heapBytes());
                next[0] = new DeltaBaseline(true, now.header(), counters, kept, baselines::remove);
                baselines.add(next[0]);
                return delta;
            }, format, true, use);
            return new Chained<>(value, next[0]);
        } catch (RuntimeException | Error e) {
            if (next[0] != null) {
                next[0].close();
            } else {
                kept.close();
            }
            throw e;
        }
    }

    int deltaBaselinesOpen() {
        return baselines.size();
    }

    /** Gives back the budget of every open delta baseline: what they count from has ended. */
    void closeBaselines() {
        baselines.forEach(DeltaBaseline::close);
    }

    /** Frees every raw dump: the profile they copy is gone. */
    void closeRawDumps() {
        rawDumps.closeAll();
    }

    /** {@code since}: the difference from that baseline, else everything since continuous sampling began. */
    private AllocationProfile continuousProfileNow(LiveFilter filter, boolean gc, DeltaBaseline since) {
        ContinuousReading now = continuousReading(filter, gc, since, "continuous sampling was restarted during the window; retry");
        return since == null ? now.header().profile(now.snapshot()) : since.delta(now.header(), now.snapshot(), CounterWindow.ALL);
    }

    /** Continuous sampling's counters now and the header that describes them, undecoded. */
    private record ContinuousReading(DumpHeader header, NativeSnapshot snapshot) {
    }

    /**
     * The one read of continuous sampling behind a profile, a delta and a push's chained delta. Under the
     * session's lock; {@code restarted}: the refusal when {@code since} was closed by a restart.
     */
    private ContinuousReading continuousReading(LiveFilter filter, boolean gc, DeltaBaseline since, String restarted) {
        ContinuousRun run = sampling.requireContinuous();
        if (since != null && !since.isOpen()) {
            throw new SessionConflictException(restarted);
        }
        List<String> warnings = new ArrayList<>();
        LiveProof proof = sampling.proveContinuous(run, gc, warnings);
        NativeSnapshot snapshot;
        try {
            snapshot = sampling.snapshots().snapshot(filter, proof);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ContinuousReading(sampling.continuousHeader(run, warnings, proof), snapshot);
    }

    /**
     * {@code since}: the difference from that baseline, else the whole capture (a window's part of the
     * counters during continuous sampling). Under the session's lock.
     */
    AllocationProfile profileNow(LiveFilter filter, boolean gc, DeltaBaseline since) {
        return profileNow(filter, gc, since, false);
    }

    /** {@code census}: with the census taken right after the forced collection ({@code gc}). */
    private AllocationProfile profileNow(LiveFilter filter, boolean gc, DeltaBaseline since, boolean census) {
        long began = System.nanoTime();
        List<String> warnings = new ArrayList<>();
        LiveProof proof = sampling.prove(gc, warnings);
        DumpCensus taken = census ? censusAfter(warnings, began) : null;
        CounterWindow counted = sampling.requireCaptured().counted();
        NativeSnapshot snapshot = snapshot(filter, proof);
        DumpHeader header = sampling.header(warnings, proof);
        AllocationProfile profile = since == null ? header.profile(counted.apply(snapshot)) : since.delta(header, snapshot, counted);
        return taken == null ? profile : profile.withCensus(taken);
    }


    /**
     * The census right after the forced collection of {@link Sampling#prove}, which warns (and only then) when
     * the collection did not run: the census reads with {@code -all} (no collection of its own), so after no
     * collection it would count garbage as live, and none is taken.
     */
    private DumpCensus censusAfter(List<String> proofWarnings, long began) {
        if (!proofWarnings.isEmpty()) {
            return DumpCensus.refused("the forced collection did not run, and a census without one would count garbage");
        }
        return censuses.take(began);
    }

    /** A reservation for decoding ({@code format} null) or for decoding and encoding; {@code wait}: for others to give back. */
    HeapBudget.Reservation reserve(ProfileFormat format, boolean delta, boolean wait) {
        TableSizes sizes = sampling.snapshots().tableSizes();
        long estimate = format == null ? DumpCost.decode(sizes)
                : delta ? DumpCost.deltaAndEncode(sizes, format) : DumpCost.decodeAndEncode(sizes, format);
        return budget.reserve(estimate, what(format), instead, wait);
    }

    private static String what(ProfileFormat format) {
        return format == null ? "decoding the profile" : "a " + format.id() + " dump";
    }

    /** See {@link Controller#openRawDump}. */
    String openRawDump(boolean gc, boolean withCensus) {
        synchronized (sampling) {
            rawDumps.admit();  // busy is refused before the snapshot (or a forced collection) is made
            RawSnapshot snapshot;
            long began = System.nanoTime();
            List<String> warnings = new ArrayList<>();
            LiveProof proof = sampling.prove(gc, warnings);
            // Bounded JSON (DumpCensus.TOP rows and the rest, a few KiB) kept with the dump until the CLI has read it.
            String census = gc && withCensus ? DumpCensusJson.toJson(censusAfter(warnings, began)) : "";
            CounterWindow counted = sampling.requireCaptured().counted();
            // A window's counters go with the dump (the CLI applies them): they stay on the heap until it closes.
            HeapBudget.Reservation held = counted.heapBytes() == 0 ? null
                    : budget.reserve(2 * counted.wireBytes(), "a raw dump's window counters", instead, false);
            try {
                snapshot = sampling.snapshots().openSnapshot(proof);
            } catch (IOException e) {
                close(held);
                throw new SessionConflictException(e.getMessage());
            }
            String id;
            try {
                byte[] prefix = RawDump.prefix(sampling.header(warnings, snapshot.proof()), counted);
                if (held != null) {
                    held.keepOnly(prefix.length);
                }
                id = rawDumps.open(prefix, snapshot, held, census);
            } catch (RuntimeException | Error e) {
                snapshot.close();  // never a native slot without an owner (closing twice is harmless)
                close(held);
                throw e;
            }
            sampling.fetched();
            return id;
        }
    }

    private static void close(HeapBudget.Reservation held) {
        if (held != null) {
            held.close();
        }
    }

    byte[] readRawDump(String id, long offset, int maxBytes) {
        try {
            return rawDumps.read(id, offset, maxBytes);
        } catch (IOException e) {
            throw new SessionConflictException(e.getMessage());
        }
    }

    String rawDumpCensus(String id) {
        return rawDumps.census(id);
    }

    void closeRawDump(String id) {
        rawDumps.close(id);
    }

    /** See {@link Controller#referencePaths(String, Predicate, PathOptions)}. */
    PathReport referencePaths(String label, Predicate<AllocationSite> which, PathOptions options) {
        int[] ids;
        long tracked = 0;
        synchronized (sampling) {
            if (sampling.capture() == null) {
                throw new SessionConflictException("nothing is tracked: no capture has run since the agent was loaded or reset;"
                        + " run a capture with live tracking first");
            }
            List<Integer> matched = new ArrayList<>();
            try (HeapBudget.Reservation reserved = reserve(null, false, false)) {
                List<AllocationSite> sites = snapshot(LiveFilter.NONE, LiveProof.NONE).sites();
                for (int i = 0; i < sites.size(); i++) {
                    if (which.test(sites.get(i))) {
                        matched.add(i);
                        tracked += sites.get(i).live().tracked();
                    }
                }
            }
            if (matched.isEmpty()) {
                throw new IllegalArgumentException("no allocation site matches '" + label + "': give the allocated type"
                        + " (for example byte[]) or the allocating method (for example OrderCache.put) as the dump shows them");
            }
            if (tracked == 0) {
                throw new SessionConflictException("no tracked object of the " + matched.size() + " site(s) matching '" + label
                        + "' is alive: they were collected, or the capture ran without live tracking (--no-live)");
            }
            ids = matched.stream().mapToInt(Integer::intValue).toArray();
        }
        // Outside the lock: the walk can take seconds, and status or stop must not wait for it.
        try {
            PathSearch search = sampling.snapshots().referencePaths(ids, options.maxPaths(), options.maxDepth(),
                    options.maxObjects(), options.timeLimit());
            return new PathReport(label, ids.length, tracked, search);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private NativeSnapshot snapshot(LiveFilter filter, LiveProof proof) {
        try {
            return sampling.snapshots().snapshot(filter, proof);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
