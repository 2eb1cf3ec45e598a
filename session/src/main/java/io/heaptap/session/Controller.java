package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.wire.options.PathOptions;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.Sampler;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.Markings;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.census.CensusReading;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.DumpCensus;
import io.heaptap.profile.census.HeapReading;
import io.heaptap.profile.census.HeldByTracking;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.profile.format.ProfileWriter;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.wire.RawDump;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one owner of heaptap's session in a JVM. The MXBean, the HTTP routes and (through the
 * MXBean) the CLI all go through it, so a capture started anywhere is seen everywhere and a second
 * concurrent start is refused with the same message wherever it comes from.
 *
 * <p>Refusals are {@link IllegalStateException}s ({@link SessionConflictException} when the state
 * refuses, {@link AgentUnavailableException} when nothing can be sampled) and bad arguments
 * {@link IllegalArgumentException}s; the MXBean hands them on as the plain JDK types.
 *
 * <p>It wires three parts and hands each door's call to one of them: {@link Sampling} owns the
 * sampler (captures, continuous sampling, the time box, the governor) and the session's lock;
 * {@link ProfileReader} reads the counters within heaptap's heap budget (profiles, deltas, raw dumps,
 * reference paths); {@link LeakWatch} is a client of both, with a lock of its own. The time box is enforced twice: a timer
 * stops the capture, and the native sampler refuses samples past the deadline on its own.
 */
public final class Controller {
    private static final long RECENT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The most classes a census asked for on its own names; the rest is one row, so its size is bounded. */
    public static final int MAX_CENSUS_CLASSES = 1000;
    private final ScheduledExecutorService timer;
    private final TargetInfo target;
    private final DumpDirectory dumpDirectory;
    private final HeapBudget budget = HeapBudget.forThisJvm();
    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    private final Sampling sampling;
    private final ProfileReader reader;
    private final LeakWatch leakWatch;
    private final ClassCensusTaker census;
    /** One census asked for on its own at a time: each pauses the application twice. */
    private final Semaphore censusSlot = new Semaphore(1);
    /**
     * The status's figures, kept a second for every door (JConsole polls each attribute; a decode per
     * attribute would be wasted work). Small, so they hold no share of the budget. Guarded by the
     * session's lock; {@link #figuresGeneration} counts the captures started and ended, so figures read
     * across a change are not kept.
     */
    private ProfileFigures figures;
    private long figuresNanos;
    private long figuresGeneration;
    /** The OTLP push while it runs, else null; started and stopped under {@link #pushLock}, never the session's lock. */
    private volatile OtlpPush push;
    private final Object pushLock = new Object();

    public Controller() {
        this(DumpDirectory.forThisJvm());
    }

    public Controller(DumpDirectory dumpDirectory) {
        this(dumpDirectory, NativeAgentOrError.load());
    }

    private Controller(DumpDirectory dumpDirectory, NativeAgentOrError loaded) {
        this(dumpDirectory, loaded.agent(), loaded.error());
    }

    /**
     * @param sampler     the allocation sampler (the native agent; a fake in unit tests), or null
     * @param nativeError why there is no sampler (every capture is then refused with it), or null
     */
    Controller(DumpDirectory dumpDirectory, Sampler sampler, String nativeError) {
        this(dumpDirectory, sampler, nativeError, new PlatformGcBeans());
    }

    /** @param gcBeans the JVM's garbage collectors (the platform MXBeans; a fake in unit tests) */
    Controller(DumpDirectory dumpDirectory, Sampler sampler, String nativeError, GcBeans gcBeans) {
        this.dumpDirectory = dumpDirectory;
        this.timer = Executors.newSingleThreadScheduledExecutor(Sampling::timerThread);
        this.target = new TargetInfo(ProcessHandle.current().pid(), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), System.getProperty("sun.java.command", ""));
        Hooks hooks = new Hooks();
        this.sampling = new Sampling(sampler, nativeError, gcBeans, timer, target, budget, listeners, hooks);
        this.census = new ClassCensusTaker(budget, gcBeans, ClassCensusTaker.PLATFORM);
        this.reader = new ProfileReader(sampling, budget, new RawDumps(timer), target.pid(), this::dumpCensus);
        this.leakWatch = new LeakWatch(this, timer, listeners, target.pid(), census, () -> NoMarkingCause.read(gcBeans));
    }

    /** What the sampling owner tells the others, under the session's lock. */
    private final class Hooks implements Sampling.Hooks {
        @Override
        public void countersRestarted() {
            reader.closeBaselines();
        }

        @Override
        public void profileDropped() {
            reader.closeRawDumps();
        }

        @Override
        public void captureChanged() {
            figures = null;
            figuresGeneration++;
        }

        @Override
        public void captureEnded(Instant startedAt, String reason) {
            leakWatch.captureEnded(startedAt, reason);
        }
    }

    /** The session's lock: held, no start, stop or reset changes the capture or the counters. */
    Object lock() {
        return sampling;
    }

    /**
     * Starts a capture and returns when it started, which names it. The status is built for the
     * listeners alone: right after a start it measures the GC cost over a window of no length, 17-26 ms
     * of a busy target on the first attach, while the CLI that asked waits for the answer.
     */
    public Instant start(CaptureOptions requested, String client) {
        return sampling.start(requested, client);
    }

    /**
     * Starts continuous sampling until {@link #stopContinuous}: default depth and live budget, a stack
     * budget every scrape can afford within heaptap's heap budget ({@link ContinuousRun#maxStacksFor}),
     * the default sample-rate target, and counters never reset (so {@code /debug/pprof/allocs} is
     * cumulative). Refused while a capture runs or continuous sampling runs already. {@code service}
     * names the JVM in scrapes; null or blank: the main class or jar.
     */
    public ContinuousRun startContinuous(String service, String client) {
        return sampling.startContinuous(service, client);
    }

    /** Ends continuous sampling (and a window over it, and the OTLP push). The last window's profile stays. Harmless when off. */
    public void stopContinuous() {
        // Under the push's lock throughout: a push started between the two would outlive continuous sampling.
        synchronized (pushLock) {
            stopOtlpPush();
            sampling.stopContinuous();
        }
    }

    /**
     * Pushes continuous sampling's profile to an OTLP/HTTP receiver every period ({@link OtlpPush}) until
     * continuous sampling stops. A push to the same endpoint running already is kept (its status is
     * returned); one to another is refused.
     *
     * @throws SessionConflictException continuous sampling is off, or a push to another endpoint runs
     */
    public OtlpPushStatus startOtlpPush(OtlpPushOptions options) {
        return startOtlpPush(options, new HttpOtlpSender(), OtlpPushOptions.MAX_BODY_BYTES);
    }

    OtlpPushStatus startOtlpPush(OtlpPushOptions options, OtlpSender sender, int maxBodyBytes) {
        synchronized (pushLock) {
            sampling.requireAgent();
            if (sampling.continuous() == null) {
                throw new SessionConflictException("the OTLP push sends continuous sampling's profile, which is off:"
                        + " start it first ('heaptap serve --continuous PID')");
            }
            OtlpPush running = push;
            if (running != null) {
                if (running.options().endpoint().equals(options.endpoint())) {
                    return running.status();
                }
                throw new SessionConflictException("continuous sampling pushes to " + running.options().endpoint()
                        + " already; stop continuous sampling first to push elsewhere");
            }
            OtlpPush started = new OtlpPush(options, continuousDeltas(this::otlpBody), sender, maxBodyBytes);
            started.start();
            push = started;
            return started.status();
        }
    }

    /** Continuous sampling's deltas, one after the other, each encoded by {@code encode}. */
    OtlpPush.Deltas continuousDeltas(Function<AllocationProfile, byte[]> encode) {
        return new ContinuousDeltas(reader, encode);
    }

    /** A delta as the push's OTLP body: the service and host its scrapes carry as resource attributes. */
    private byte[] otlpBody(AllocationProfile delta) {
        ScrapeLabels labels = scrapeLabels();
        if (labels == null) {
            throw new SessionConflictException("continuous sampling stopped");
        }
        return ProfileWriter.otlpPush(delta, labels.service(), labels.host());
    }

    /** Stops the OTLP push; harmless when none runs. */
    public void stopOtlpPush() {
        synchronized (pushLock) {
            OtlpPush running = push;
            push = null;
            if (running != null) {
                running.stop();
            }
        }
    }

    /** The OTLP push's figures, or null when none runs. */
    public OtlpPushStatus otlpPush() {
        OtlpPush running = push;
        return running == null ? null : running.status();
    }

    /** Continuous sampling now, or null when off. */
    public ContinuousRun continuous() {
        return sampling.continuous();
    }

    /** Ends the capture now. Harmless when nothing is recording. */
    public void stop() {
        sampling.stop();
    }

    /** Ends the capture only while it is still the one that started at {@code at} (a scrape whose client went away). */
    public void stopIfStartedAt(Instant at, String reason) {
        sampling.stopIfStartedAt(at, reason);
    }

    /**
     * Starts a leak watch: a capture for the whole duration (re-armed past 24 h) and a live
     * snapshot every step, ranked by leak evidence. Refused while a capture or a watch runs.
     */
    public void startLeakWatch(LeakWatchOptions options, String client) {
        sampling.requireAgent();
        leakWatch.start(options, Sampling.clientLabel(client));
    }

    /** Ends the leak watch now, with a last snapshot, and stops its capture. Harmless when none runs. */
    public void stopLeakWatch() {
        leakWatch.end("stopped");
    }

    /** idle (no watch since the last reset), watching, or ended. */
    public String leakWatchState() {
        return leakWatch.state().label();
    }

    /** The leak ranking as of the last snapshot; null when no watch has run since the last reset. */
    public LeakReport leakReport() {
        return leakWatch.report();
    }

    /** The leak watch's state with the report published with it, read at one moment (a status pairs them). */
    LeakWatch.View leakWatchView() {
        return leakWatch.view();
    }

    /** The leak watch's own lock (taken before the session's), for tests that hold its timer back. */
    Object leakWatchLock() {
        return leakWatch.lock();
    }

    public void addListener(SessionListener listener) {
        listeners.add(listener);
    }

    public DumpDirectory dumpDirectory() {
        return dumpDirectory;
    }

    /**
     * The current or last capture's profile, handed to {@code use} within heaptap's heap budget, for a
     * status or a table of top sites: unlike {@link #withProfile} it is not the user's fetch, so an ended
     * capture nobody dumped stays protected from a reset by continuous sampling. {@code use} gets null
     * when no capture has run.
     *
     * @throws HeapBudgetException the profile is too big to decode within heaptap's heap budget
     */
    public <T> T peekProfile(Function<AllocationProfile, T> use) {
        return reader.peekProfile(use);
    }

    /**
     * The figures a status shows: of the current or last capture, else of continuous sampling while it
     * runs, else null. Each read decodes within the heap budget, which is given back before this
     * returns; the figures are kept a second.
     *
     * @throws HeapBudgetException the profile is too big to decode within heaptap's heap budget
     */
    public ProfileFigures profileFigures() {
        boolean capture;
        long generation;
        synchronized (lock()) {
            capture = sampling.state() != SessionState.IDLE;
            if (!capture && sampling.continuous() == null) {
                return null;
            }
            if (figures != null && System.nanoTime() - figuresNanos <= RECENT_NANOS) {
                return figures;
            }
            generation = figuresGeneration;
        }
        // Outside the lock: the reservation may wait for other requests to give theirs back.
        ProfileFigures read;
        try {
            read = capture ? peekProfile(profile -> profile == null ? null : ProfileFigures.of(profile, "capture"))
                    : reader.withContinuousProfile(LiveFilter.NONE, false, null, profile -> ProfileFigures.of(profile, "continuous sampling"));
        } catch (SessionConflictException stoppedMeanwhile) {
            return null;
        }
        synchronized (lock()) {
            if (generation == figuresGeneration) {
                figures = read;
                figuresNanos = System.nanoTime();
            }
        }
        return read;
    }

    /** Writes a dump into the dump directory under a plain file name and returns its path. */
    public Path dumpToFile(ProfileFormat format, String fileName, LiveFilter filter, boolean gc) throws IOException {
        return dumpDirectory.write(fileName, dump(format, filter, gc));
    }

    /**
     * Forgets everything and returns to idle. Harmless when idle. Refused while continuous sampling
     * runs: scrapers rely on its counters never going back (stop it first).
     */
    public void reset() {
        leakWatch.forgetAround(sampling::requireResettable, sampling::reset);
    }

    /** The session now; the continuous line names the OTLP push and its figures while one runs. */
    public SessionStatus status() {
        SessionStatus s = sampling.status();
        OtlpPushStatus p = otlpPush();
        return p == null || s.continuous().isEmpty() ? s : s.withContinuous(s.continuous() + "; " + p.describe());
    }

    /**
     * The profile of the current (so far) or last capture, and the live set now through a filter;
     * {@code gc} forces a full collection first (it pauses the application). Decoding it reserves
     * its estimated size from heaptap's heap budget (given back on return: keep the profile briefly).
     * What the calling thread allocates meanwhile is heaptap's work and is not sampled.
     *
     * @throws HeapBudgetException the profile is too big to decode within heaptap's heap budget
     */
    public AllocationProfile profile(LiveFilter filter, boolean gc) {
        return withProfile(filter, gc, null, profile -> profile);
    }

    /**
     * Decodes the profile as {@link #profile} does and hands it to {@code use} (an encoder into
     * {@code format}, or null for none), all within a reservation of heaptap's heap budget for both.
     *
     * @throws HeapBudgetException decoding and encoding would not fit heaptap's heap budget
     */
    public <T> T withProfile(LiveFilter filter, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return reader.withProfile(filter, gc, format, use);
    }

    /**
     * The capture a scrape started at {@code at} for its window (pprof's {@code ?seconds=N} on an idle
     * JVM), ended now if its time box has not ended it yet, handed to {@code use} as {@link #withProfile}
     * does. The window and the time box end on two timers: without this the answer could come while the
     * capture still ran, and a start right after it was refused.
     *
     * @throws SessionConflictException another capture replaced it during the window
     */
    public <T> T withScrapedCaptureProfile(Instant at, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return reader.withScrapedCaptureProfile(at, gc, format, use);
    }

    /**
     * Continuous sampling's profile, cumulative since it began (whatever window runs), with the live
     * set now, handed to {@code use} within heaptap's heap budget as {@link #withProfile} does; its
     * time stamp is now and its duration the time since continuous sampling began.
     *
     * @throws SessionConflictException continuous sampling is off
     */
    public <T> T withContinuousProfile(LiveFilter filter, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return reader.withContinuousProfile(filter, gc, format, use);
    }

    /**
     * The start of a delta over the next seconds (pprof's {@code ?seconds=N}): the counters of
     * continuous sampling ({@code continuous}) or of the running capture, kept as 40 bytes a site
     * under a reservation of heaptap's heap budget until the baseline is closed. The delta itself is
     * {@link #withDeltaProfile}, to be encoded in {@code format}.
     *
     * @throws HeapBudgetException      other requests hold the budget (after waiting for them a little), or the
     *                                  baselines already kept leave too little room for this one and its end
     * @throws SessionConflictException continuous sampling is off, or no capture has run
     */
    public DeltaBaseline deltaBaseline(boolean continuous, ProfileFormat format) {
        return reader.deltaBaseline(continuous, format);
    }

    /**
     * What was counted from {@code since} to now, with the live set now through no filter (a full
     * collection first if {@code gc}), handed to {@code use} (an encoder into {@code format}) as
     * {@link #withProfile} does, within a reservation of heaptap's heap budget for the decoding, the
     * difference and the encoding; the baseline keeps its own until closed.
     *
     * @throws SessionConflictException the baseline's counters ended meanwhile (continuous sampling
     *                                  stopped or restarted, the capture replaced or reset)
     * @throws HeapBudgetException      it would not fit heaptap's heap budget now
     */
    public <T> T withDeltaProfile(DeltaBaseline since, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return reader.withDeltaProfile(since, gc, format, use);
    }

    /** Delta scrapes waiting out their windows now (each keeping its baseline). */
    public int deltaBaselinesOpen() {
        return reader.deltaBaselinesOpen();
    }

    /** The labels continuous scrapes carry, or null when continuous sampling is off. */
    public ScrapeLabels scrapeLabels() {
        ContinuousRun run = sampling.continuous();
        return run == null ? null : ScrapeLabels.of(run, target);
    }

    /** heaptap's share of this JVM's heap. */
    public HeapBudget heapBudget() {
        return budget;
    }

    /**
     * Forces a whole-heap collection through JVMTI (even with -XX:+DisableExplicitGC) and returns how
     * long the call took, or -1 if the JVM refused. <b>Pauses the application.</b>
     */
    long forceFullGc() {
        return sampling.forceFullGc();
    }

    /** The marking clock as of now, for the capture's window. */
    Markings markings() {
        return sampling.markings();
    }

    /** The profile encoded in a format, within heaptap's heap budget. */
    public byte[] dump(ProfileFormat format, LiveFilter filter, boolean gc) {
        return withProfile(filter, gc, format, profile -> ProfileWriter.toBytes(profile, format));
    }

    /**
     * Opens a raw dump ({@link RawDump}) of the current or last capture for a client that decodes it
     * itself (the CLI): the capture stays in native memory and is read in chunks, so the target's
     * heap holds one chunk at a time, whatever the profile's size. {@code gc} forces a full
     * collection first, as for {@link #profile}, and with {@code census} takes a class census right
     * after it (a second pause: only for a format that shows one). Returns the dump's id.
     */
    public String openRawDump(boolean gc, boolean census) {
        return reader.openRawDump(gc, census);
    }

    /** Up to {@code maxBytes} of a raw dump from {@code offset} (at most 256 KiB); empty at its end. */
    public byte[] readRawDump(String id, long offset, int maxBytes) {
        return reader.readRawDump(id, offset, maxBytes);
    }

    /**
     * The class census taken right after an open raw dump's forced collection, as JSON
     * ({@link io.heaptap.profile.census.DumpCensusJson}; at most {@value DumpCensus#TOP} rows and the rest), or empty
     * when the dump forced none.
     */
    public String rawDumpCensus(String id) {
        return reader.rawDumpCensus(id);
    }

    /** Frees a raw dump; harmless if it is gone already. */
    public void closeRawDump(String id) {
        reader.closeRawDump(id);
    }

    /**
     * "How is it held?": the reference chains from a GC root (or a static field) to the oldest tracked
     * objects of the sites a text names ({@link SiteMatch}). <b>Pauses the application</b> for the
     * walk, at most {@code options.timeLimit()}.
     *
     * @throws IllegalArgumentException no site matches
     * @throws SessionConflictException nothing is tracked, or no tracked object of the sites is alive
     */
    public PathReport referencePaths(String site, PathOptions options) {
        return referencePaths(site, SiteMatch.of(site), options);
    }

    /** The same for sites chosen by a predicate (the leaks ranking names its sites exactly); {@code label} is shown. */
    public PathReport referencePaths(String label, Predicate<AllocationSite> which, PathOptions options) {
        return reader.referencePaths(label, which, options);
    }

    /**
     * An exact class census of the whole heap now: a whole-heap collection through JVMTI (even with
     * -XX:+DisableExplicitGC; counted on the marking clock), then the JVM's own {@code GC.class_histogram -all},
     * naming the {@code top} classes with the most bytes and the rest as one row. <b>Pauses the application
     * twice.</b> Works with or without a capture.
     *
     * @throws IllegalArgumentException {@code top} is not 1 to {@value #MAX_CENSUS_CLASSES}
     * @throws SessionConflictException another census runs, or the JVM did not run the collection
     * @throws HeapBudgetException      the census would not fit heaptap's heap budget (nothing was asked of the JVM)
     * @throws IllegalStateException    no native agent, or the JVM refused the census
     */
    public CensusReading classCensus(int top) {
        if (top < 1 || top > MAX_CENSUS_CLASSES) {
            throw new IllegalArgumentException("a census names 1 to " + MAX_CENSUS_CLASSES + " classes (the rest is one row), not " + top);
        }
        sampling.requireAgent();
        if (!censusSlot.tryAcquire()) {
            throw new SessionConflictException("a class census runs already: each one pauses the application, so wait for it");
        }
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            long began = System.nanoTime();
            long took = forceFullGc();
            if (took < 0) {
                throw new SessionConflictException("the JVM did not run the forced whole-heap collection (a JNI critical region"
                        + " may have held it off), so no census was taken; retry");
            }
            ClassCensus counted = census.take(began, top);
            HeldByTracking held = census.reading() == HeapReading.CENSUS ? heldUnexamined() : HeldByTracking.NONE;
            return new CensusReading(counted.less(held), TimeUnit.NANOSECONDS.toMillis(took), held.bytes());
        } finally {
            censusSlot.release();
        }
    }

    /**
     * The census a dump with a forced collection carries, taken right after that collection (no collection of its
     * own: {@code -all}), naming {@value DumpCensus#TOP} classes; what stopped it is the dump's refusal line, never
     * its failure. {@code beganNanos}: when the dump began.
     */
    private DumpCensus dumpCensus(long beganNanos) {
        try {
            return DumpCensus.of(census.take(beganNanos, DumpCensus.TOP));
        } catch (IllegalStateException e) {  // heaptap's heap budget (HeapBudgetException), or the JVM refused it
            return DumpCensus.refused(e.getMessage());
        }
    }

    /**
     * What live tracking holds that no marking has examined yet, for a census that counts it (one that marks from every
     * root, weak ones too: ZGC's and Shenandoah's): by class from the capture decoded now, right after the census, or as
     * the agent's total when there is no capture to decode or its decode would not fit heaptap's heap budget.
     */
    private HeldByTracking heldUnexamined() {
        long total = trackedUnexaminedBytes();
        if (total <= 0) {
            return HeldByTracking.NONE;
        }
        try {
            return HeldByTracking.of(profile(LiveFilter.NONE, false));
        } catch (RuntimeException e) {  // SessionConflictException (no capture), HeapBudgetException
            return HeldByTracking.total(total);
        }
    }

    /** Sizes of the objects live tracking holds that no marking has examined yet, now: a census counts them too. */
    long trackedUnexaminedBytes() {
        return sampling.unexaminedBytes();
    }

    /** JNI weak references the agent holds (0 after reset). */
    public long weakRefs() {
        return sampling.weakRefs();
    }

    /**
     * heaptap's whole status now, as every door renders it; the profile's figures are read only when
     * the first figure that needs them is asked for ({@link StatusReport.Profile}).
     */
    public StatusReport statusReport(StatusReport.Door door) {
        return StatusReport.read(this, door);
    }

    /** The JVM's native agent, or why it cannot be had. */
    private record NativeAgentOrError(Sampler agent, String error) {
        static NativeAgentOrError load() {
            try {
                return new NativeAgentOrError(NativeAgent.get(), null);
            } catch (NativeAgentException e) {
                return new NativeAgentOrError(null, e.getMessage());
            }
        }
    }
}
