package io.heaptap.session;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.LiveProof;
import io.heaptap.nativeagent.NativeSnapshot;
import io.heaptap.nativeagent.PathSearch;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.nativeagent.Sampler;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.nativeagent.SiteCounters;
import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.Markings;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.profile.format.ProfileWriter;
import io.heaptap.profile.format.TerminalText;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one owner of heaptap's session in a JVM. The MXBean, the HTTP routes and (through the
 * MXBean) the CLI all go through it, so a capture started anywhere is seen everywhere and a second
 * concurrent start is refused with the same message wherever it comes from.
 *
 * <p>Refusals are {@link IllegalStateException}s ({@link SessionConflictException} when the state
 * refuses, {@link AgentUnavailableException} when nothing can be sampled) and bad arguments
 * {@link IllegalArgumentException}s; the MXBean hands them on as the plain JDK types.
 *
 * <p>The time box is enforced twice: a timer here stops the capture, and the native sampler
 * refuses samples past the deadline on its own.
 */
public final class Controller {
    private static final long RECENT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Why a capture ended when its box ran out (the controller's timer, or a scrape's answer): SessionListener's. */
    private static final String TIME_BOX_ENDED = "time box ended";
    /**
     * How often a sample-rate target reads the sample count: a storm costs at most this long at the
     * old interval (from the 32 KiB floor at 5 GB/s, 16,000 samples in 100 ms rather than 160,000 in
     * a second). At the 5,000/s default a reading holds about 500 samples, a 4.5% noise well inside
     * the band [target/2, 2 x target] that makes the governor jump (it trims over a second or more).
     */
    static final long GOVERNOR_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final int MAX_CLIENT_CHARS = 200;
    private final Sampler agent;
    private final LiveTracker liveTracker;
    private final String nativeError;
    private final ScheduledExecutorService timer;
    private final TargetInfo target;
    private final DumpDirectory dumpDirectory;
    private final LargeObjects largeObjects;
    private final GcMonitor gcMonitor;
    /** The process's CPU time so far in nanoseconds, negative when unknown: what a sample cost budget is a share of. */
    private final LongSupplier processCpuNanos;
    /** The sample callback's time so far in nanoseconds (0 without the native agent): what the samples cost. */
    private final LongSupplier callbackNanos;
    /** The JVM's own sampling events, priced on JDK 11-24: part of what sampling costs. */
    private final JvmEvents jvmEvents;
    /** What the current or last capture's sampling cost, and continuous sampling's since it began. */
    private final SamplingCostMeter captureCost;
    private final SamplingCostMeter continuousCost;
    private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
    private final LeakWatch leakWatch;
    private final GcBeans gcBeans;

    private SessionState state = SessionState.IDLE;
    private CaptureOptions options;
    private String startedBy;
    private Instant startedAt;
    private long startNanos;
    private long stopNanos;
    private ScheduledFuture<?> deadline;
    private final HeapBudget budget = HeapBudget.forThisJvm();
    /** How to get a profile that heaptap cannot build within its heap budget. */
    private final String instead;
    private final RawDumps rawDumps;
    private final AllocationRate allocationRate = new AllocationRate();
    private AllocationProfile recentProfile;
    private HeapBudget.Reservation recentReservation;
    /** Delta baselines not yet closed, each holding its share of the budget; closed early when their counters end. */
    private final Set<DeltaBaseline> baselines = ConcurrentHashMap.newKeySet();
    private long recentProfileNanos;
    private long markingsAtStart;
    private long forcedAtStart;
    /** Moves the interval of a capture with a sample-rate target; null for a fixed interval. */
    private SampleRateGovernor governor;
    private ScheduledFuture<?> governing;
    /** Continuous sampling, or null when off; while it runs a capture is a window over it. */
    private ContinuousRun continuous;
    private ScheduledFuture<?> continuousGoverning;
    /** The sampler's sample count when the current or last window began, and when it ended (-1 while it runs). */
    private long windowSamplesAtStart;
    private long windowSamplesAtEnd = -1;
    /**
     * Whether the ended capture's profile went to a client (a dump, a raw dump). Continuous sampling
     * starts the counters from zero, so it is refused while an ended capture nobody has fetched would
     * be lost with them.
     */
    private boolean endedCaptureFetched;
    /** Nominal native time box of continuous sampling: it runs until stopped (100 years). */
    static final Duration CONTINUOUS_NATIVE_DURATION = Duration.ofDays(36_500);

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
        this.gcBeans = gcBeans;
        this.largeObjects = LargeObjects.forThisJvm(gcBeans);
        this.agent = sampler;
        this.liveTracker = sampler == null ? null : new LiveTracker(sampler, gcBeans);
        this.gcMonitor = new GcMonitor(gcBeans);
        this.processCpuNanos = gcBeans::processCpuNanos;
        this.callbackNanos = () -> agent == null ? 0 : agent.sampleNanos();
        this.jvmEvents = new JvmEvents(Runtime.version().feature(), () -> agent == null ? 0 : agent.jvmEvents(),
                () -> agent == null ? 0 : agent.jvmIntervalBytes());
        this.captureCost = new SamplingCostMeter(callbackNanos, processCpuNanos, jvmEvents::events);
        this.continuousCost = new SamplingCostMeter(callbackNanos, processCpuNanos, jvmEvents::events);
        this.nativeError = nativeError;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(NativeAgent.heaptapThread(r), "heaptap-timer");
            t.setDaemon(true);
            return t;
        });
        this.target = new TargetInfo(ProcessHandle.current().pid(), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), System.getProperty("sun.java.command", ""));
        this.leakWatch = new LeakWatch(this, timer, listeners, target.pid(),
                new ClassCensusTaker(budget, gcBeans, ClassCensusTaker.PLATFORM, io.heaptap.profile.census.ClassCensus.DEFAULT_TOP),
                () -> NoMarkingCause.read(gcBeans));
        this.rawDumps = new RawDumps(timer);
        this.instead = "the CLI ('heaptap dump " + target.pid() + "') fetches the capture undecoded and encodes it outside this JVM;"
                + " or capture with fewer --max-stacks, a smaller --depth or --live-budget";
    }

    /**
     * Starts a capture and returns when it started, which names it. The status is built for the
     * listeners alone: right after a start it measures the GC cost over a window of no length, 17-26 ms
     * of a busy target on the first attach, while the CLI that asked waits for the answer.
     */
    public synchronized Instant start(CaptureOptions requested, String client) {
        Sampler native_ = requireAgent();
        if (state == SessionState.RECORDING) {
            throw new SessionConflictException("a capture is already running: started by " + startedBy + " at " + startedAt
                    + ", ends at " + startedAt.plus(options.duration()) + "; stop it first or wait");
        }
        if (continuous != null) {
            return startWindow(native_, requested, client);
        }
        try {
            LiveBound bound = liveTracker.bound(largeObjects, requested.liveBytes());  // refuses a bound beyond its cap
            if (requested.live()) {
                liveTracker.start();
            }
            captureCost.start(budgetShare(requested));
            native_.start(new SamplerSettings(requested.intervalBytes(), requested.duration(), requested.stackDepth(),
                    requested.maxStacks(), requested.live() ? requested.liveBudget() : 0, largeObjects.threshold(), largeObjects.budget())
                    .withByteBudgets(bound.mainBytes(), bound.largeBytes(), bound.strict()));
            jvmEvents.resetMaxInterval();  // and from here the events are charged to the JVM's interval
        } catch (NativeAgentException e) {
            throw new SessionConflictException(e.getMessage());
        }
        closeBaselines();  // the counters start again: a baseline of the last capture counts nothing any more
        windowSamplesAtStart = 0;
        beginRecording(requested, client);
        governor = requested.adaptive() ? newGovernor(requested, native_.sampleCount(), startNanos) : null;
        if (governor != null) {
            allocationRate.next(startNanos);
            governing = timer.scheduleAtFixedRate(this::governSampleRate, GOVERNOR_PERIOD_NANOS, GOVERNOR_PERIOD_NANOS,
                    TimeUnit.NANOSECONDS);
        }
        announceStart();
        return startedAt;
    }

    private void announceStart() {
        if (!listeners.isEmpty()) {
            SessionStatus started = status();
            listeners.forEach(l -> l.captureStarted(started));
        }
    }

    /** What every capture does once its sampling runs, a window over continuous sampling or not: the session's state. */
    private void beginRecording(CaptureOptions requested, String client) {
        windowSamplesAtEnd = -1;
        gcMonitor.start(timer);
        MarkingClock clock = liveTracker.markings();  // one reading of the GC clocks for both counts
        markingsAtStart = clock.completed();
        forcedAtStart = clock.forcedCount();
        options = requested;
        startedBy = clientLabel(client);
        startedAt = Instant.now();
        startNanos = System.nanoTime();
        state = SessionState.RECORDING;
        endedCaptureFetched = false;
        forgetRecentProfile();
        deadline = timer.schedule(this::timeBoxEnded, requested.duration().toNanos(), TimeUnit.NANOSECONDS);
        cancelGoverning();
    }

    /**
     * A capture while continuous sampling runs: a window over the same sampler, which is neither
     * restarted nor reset. It keeps the continuous depth (another is refused: stacks of two depths
     * would not add up), and runs at the continuous sample-rate target and live budget whatever it
     * asked for (the status and the profile say the intervals in force). Its profile is what was
     * counted between its start and its end (native baseline copies), its time box its own.
     */
    private Instant startWindow(Sampler native_, CaptureOptions requested, String client) {
        int depth = continuous.options().stackDepth();
        if (requested.stackDepth() != depth) {
            throw new SessionConflictException("continuous sampling runs at stack depth " + depth + " and a capture during it"
                    + " is a window over the same sampler: ask for depth " + depth + " (--depth " + depth + "), or stop"
                    + " continuous sampling first");
        }
        captureCost.start(budgetShare(continuous.options()));
        native_.beginWindow();
        windowSamplesAtStart = native_.sampleCount();
        beginRecording(requested, client);
        governor = continuous.governor();  // the window reports the continuous interval; only continuous governs it
        announceStart();
        return startedAt;
    }

    /**
     * Starts continuous sampling until {@link #stopContinuous}: default depth and live budget, a stack
     * budget every scrape can afford within heaptap's heap budget ({@link ContinuousRun#maxStacksFor}),
     * the default sample-rate target, and counters never reset (so {@code /debug/pprof/allocs} is
     * cumulative). Refused while a capture runs or continuous sampling runs already. {@code service}
     * names the JVM in scrapes; null or blank: the main class or jar.
     */
    public synchronized ContinuousRun startContinuous(String service, String client) {
        Sampler native_ = requireAgent();
        if (continuous != null) {
            throw new SessionConflictException("continuous sampling runs already, " + continuous.describe());
        }
        if (state == SessionState.RECORDING) {
            throw new SessionConflictException("a capture is running: started by " + startedBy + " at " + startedAt
                    + "; stop it first, then start continuous sampling");
        }
        if (state == SessionState.STOPPED && !endedCaptureFetched) {
            throw new SessionConflictException("the last capture (started by " + startedBy + " at " + startedAt + ", "
                    + captureSamples() + " samples) has not been dumped, and continuous sampling starts the counters from zero:"
                    + " dump it first ('heaptap dump " + target.pid() + "'), or drop it ('heaptap reset " + target.pid()
                    + "'), then start continuous sampling");
        }
        // No live tracking by default where weak references keep young garbage (docs/continuous.md): days of it,
        // even bounded, are heap the application pays for a view nobody asked for.
        CaptureOptions o = CaptureOptions.defaultSampling(CaptureOptions.MAX_DURATION, CaptureOptions.DEFAULT_DEPTH,
                ContinuousRun.maxStacksFor(budget.bytes()), !liveTracker.strict(), CaptureOptions.DEFAULT_LIVE_BUDGET);
        try {
            LiveBound bound = liveTracker.bound(largeObjects, 0);
            liveTracker.start();
            continuousCost.start(budgetShare(o));
            native_.start(new SamplerSettings(o.intervalBytes(), CONTINUOUS_NATIVE_DURATION, o.stackDepth(), o.maxStacks(),
                    o.live() ? o.liveBudget() : 0, largeObjects.threshold(), largeObjects.budget())
                    .withByteBudgets(bound.mainBytes(), bound.largeBytes(), bound.strict()));
            jvmEvents.resetMaxInterval();
        } catch (NativeAgentException e) {
            throw new SessionConflictException(e.getMessage());
        }
        // The counters start from zero: an earlier capture's profile is gone.
        rawDumps.closeAll();
        closeBaselines();
        state = SessionState.IDLE;
        options = null;
        startedBy = null;
        startedAt = null;
        governor = null;
        forgetRecentProfile();
        long now = System.nanoTime();
        // Escaped and cut as a client label is: anyone who can start it names it, and status prints it.
        MarkingClock clock = liveTracker.markings();
        continuous = new ContinuousRun(Instant.now(), now, service == null || service.isBlank() ? target.serviceName()
                : clientLabel(service), o, newGovernor(o, native_.sampleCount(), now),
                clock.completed(), clock.forcedCount());
        allocationRate.next(now);
        continuousGoverning = timer.scheduleAtFixedRate(this::governContinuous, GOVERNOR_PERIOD_NANOS, GOVERNOR_PERIOD_NANOS,
                TimeUnit.NANOSECONDS);
        return continuous;
    }

    /** Ends continuous sampling (and a window over it). The last window's profile stays. Harmless when off. */
    public synchronized void stopContinuous() {
        if (continuous == null) {
            return;
        }
        if (state == SessionState.RECORDING) {
            stopSampling("continuous sampling stopped");
        }
        continuousGoverning.cancel(false);
        continuousGoverning = null;
        agent.stop();
        continuous = null;
        closeBaselines();  // a delta scrape waiting on it gives its budget back and is refused now
    }

    /** Continuous sampling now, or null when off. */
    public synchronized ContinuousRun continuous() {
        return continuous;
    }

    private synchronized void governContinuous() {
        if (continuous == null) {
            return;
        }
        govern(continuous.governor());
    }

    /**
     * Who started a capture, as everyone will be shown it (status, HTTP, JConsole, notifications):
     * any client can set it, so its control characters are escaped and it is cut at
     * {@value #MAX_CLIENT_CHARS} characters. Every door's label goes through here.
     */
    static String clientLabel(String client) {
        if (client == null || client.isBlank()) {
            return "unknown client";
        }
        String label = TerminalText.escape(client.strip());
        return label.length() <= MAX_CLIENT_CHARS ? label : label.substring(0, MAX_CLIENT_CHARS - 1) + "\u2026";
    }

    /** Every 100 ms while a capture with a sample-rate target records: the interval follows the rate. */
    private synchronized void governSampleRate() {
        if (state != SessionState.RECORDING || governor == null) {
            return;
        }
        govern(governor);
    }

    /**
     * One reading of a sample-rate target, for a capture or for continuous sampling. The interval is
     * set at every reading, not only when it moves: before JDK 25 the JVM's own interval also follows
     * the allocation rate (JvmSamplingInterval). An overdue reading right after another is skipped
     * whole: over microseconds neither the sample rate nor the allocation rate can be measured.
     */
    private void govern(SampleRateGovernor rateTarget) {
        long now = System.nanoTime();
        if (!rateTarget.due(now)) {
            return;
        }
        agent.setInterval(rateTarget.next(agent.sampleCount(), now), allocationRate.next(now), rateTarget.minJvmInterval());
        jvmEvents.events();  // the bytes from here are charged to the interval just set
    }

    /** The sample-rate target of an adaptive capture or of continuous sampling, cost-bounded when the options say so. */
    private SampleRateGovernor newGovernor(CaptureOptions o, long samples, long nanos) {
        SampleCostBudget cost = o.costBounded() ? new SampleCostBudget(callbackNanos, processCpuNanos, jvmEvents) : null;
        return new SampleRateGovernor(o.sampleRate(), cost, o.intervalBytes(), samples, nanos);
    }

    private void cancelGoverning() {
        if (governing != null) {
            governing.cancel(false);
            governing = null;
        }
    }

    private synchronized void timeBoxEnded() {
        if (state == SessionState.RECORDING && System.nanoTime() - startNanos >= options.duration().toNanos()) {
            stopSampling(TIME_BOX_ENDED);
        }
    }

    /** Ends the capture now. Harmless when nothing is recording. */
    public synchronized void stop() {
        if (state == SessionState.RECORDING) {
            stopSampling("stopped");
        }
    }

    /** Ends the capture only while it is still the one that started at {@code at} (a scrape whose client went away). */
    public synchronized void stopIfStartedAt(Instant at, String reason) {
        if (state == SessionState.RECORDING && at.equals(startedAt)) {
            stopSampling(reason);
        }
    }

    private void stopSampling(String reason) {
        if (continuous != null) {
            agent.endWindow();  // continuous sampling goes on; the window's counters stop here
            windowSamplesAtEnd = agent.sampleCount();
        } else {
            agent.stop();
        }
        cancelGoverning();
        captureCost.stop(captureSamples());
        stopNanos = System.nanoTime();
        gcMonitor.stop();
        state = SessionState.STOPPED;
        forgetRecentProfile();
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
        SessionStatus ended = status();
        listeners.forEach(l -> l.captureEnded(ended, reason));
        leakWatch.captureEnded(reason);
    }

    /**
     * Starts a leak watch: a capture for the whole duration (re-armed past 24 h) and a live
     * snapshot every step, ranked by leak evidence. Refused while a capture or a watch runs.
     */
    public synchronized void startLeakWatch(LeakWatchOptions options, String client) {
        requireAgent();
        leakWatch.start(options, clientLabel(client));
    }

    /** Ends the leak watch now, with a last snapshot, and stops its capture. Harmless when none runs. */
    public synchronized void stopLeakWatch() {
        leakWatch.end("stopped");
    }

    /** idle (no watch since the last reset), watching, or ended. */
    public synchronized String leakWatchState() {
        return leakWatch.state().label();
    }

    /** The leak ranking as of the last snapshot; null when no watch has run since the last reset. */
    public synchronized LeakReport leakReport() {
        return leakWatch.report();
    }

    public void addListener(SessionListener listener) {
        listeners.add(listener);
    }

    public DumpDirectory dumpDirectory() {
        return dumpDirectory;
    }

    /**
     * The profile as of at most a second ago, for attribute reads (JConsole polls every few
     * seconds; a fresh snapshot per attribute would be wasted work). Null when idle. It holds its
     * share of the heap budget while kept, and is dropped two seconds after it was made.
     *
     * @throws HeapBudgetException the profile is too big to decode within heaptap's heap budget
     */
    public synchronized AllocationProfile recentProfile() {
        if (state == SessionState.IDLE) {
            return null;
        }
        if (recentProfile == null || System.nanoTime() - recentProfileNanos > RECENT_NANOS) {
            forgetRecentProfile();
            HeapBudget.Reservation reservation = reserve(null, false, false);  // never wait holding the controller
            try {
                recentProfile = profileNow(LiveFilter.NONE, false, null);
            } catch (RuntimeException | Error e) {
                reservation.close();
                throw e;
            }
            recentReservation = reservation;
            recentProfileNanos = System.nanoTime();
            timer.schedule(this::forgetStaleRecentProfile, 2 * RECENT_NANOS, TimeUnit.NANOSECONDS);
        }
        return recentProfile;
    }

    private synchronized void forgetStaleRecentProfile() {
        if (System.nanoTime() - recentProfileNanos >= RECENT_NANOS) {
            forgetRecentProfile();
        }
    }

    private void forgetRecentProfile() {
        recentProfile = null;
        if (recentReservation != null) {
            recentReservation.close();
            recentReservation = null;
        }
    }

    /** Writes a dump into the dump directory under a plain file name and returns its path. */
    public Path dumpToFile(ProfileFormat format, String fileName, LiveFilter filter, boolean gc) throws IOException {
        return dumpDirectory.write(fileName, dump(format, filter, gc));
    }

    /**
     * Forgets everything and returns to idle. Harmless when idle. Refused while continuous sampling
     * runs: scrapers rely on its counters never going back (stop it first).
     */
    public synchronized void reset() {
        if (continuous != null) {
            throw new SessionConflictException("continuous sampling runs (" + continuous.describe() + ") and its counters are"
                    + " never reset, so scrapers can subtract them; stop a capture with stop, or stop continuous sampling first");
        }
        leakWatch.forget();
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
        rawDumps.closeAll();
        closeBaselines();
        cancelGoverning();
        governor = null;
        if (agent != null) {
            liveTracker.stop();
            agent.clear();
        }
        gcMonitor.reset();
        windowSamplesAtStart = 0;
        windowSamplesAtEnd = -1;
        state = SessionState.IDLE;
        forgetRecentProfile();
        options = null;
        startedBy = null;
        startedAt = null;
    }

    public synchronized SessionStatus status() {
        Instant endsAt = startedAt == null ? null : startedAt.plus(options.duration());
        long left = state == SessionState.RECORDING
                ? Math.max(0, options.duration().toMillis() - Duration.ofNanos(System.nanoTime() - startNanos).toMillis())
                : 0;
        long samples = state == SessionState.IDLE ? 0 : captureSamples();
        long memory = agent == null ? 0 : agent.nativeMemoryBytes();
        return new SessionStatus(state, startedBy, startedAt, endsAt, left, options, samples, memory, nativeError,
                state == SessionState.IDLE ? null : gcMonitor.cost(), options == null ? 0 : currentInterval(), intervals(),
                continuous == null ? "" : continuous.describe() + ", " + agent.sampleCount() + " samples",
                state == SessionState.IDLE ? null : captureCost.cost(samples));
    }

    /** Samples the current or last capture kept (a window's own, during continuous sampling). */
    private long captureSamples() {
        return (windowSamplesAtEnd >= 0 ? windowSamplesAtEnd : agent.sampleCount()) - windowSamplesAtStart;
    }

    /** The share of the CPU a capture's sample callback is kept under: 0 unless its options are the cost-bounded default. */
    private static double budgetShare(CaptureOptions o) {
        return o.costBounded() ? SampleCostBudget.CPU_SHARE : 0;
    }

    private long currentInterval() {
        return governor == null ? options.intervalBytes() : governor.interval();
    }

    /** The intervals the current or last capture ran at; null when idle. */
    private IntervalRange intervals() {
        if (options == null) {
            return null;
        }
        int rate = continuous != null && governor == continuous.governor() ? continuous.options().sampleRate() : options.sampleRate();
        return governor == null ? IntervalRange.fixed(options.intervalBytes())
                : new IntervalRange(governor.minInterval(), governor.maxInterval(), rate);
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
        return withinBudget(() -> {
            AllocationProfile profile = profileNow(filter, gc, null);
            endedCaptureFetched |= state == SessionState.STOPPED;
            return profile;
        }, format, false, use);
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
        return withinBudget(() -> {
            stopIfStartedAt(at, TIME_BOX_ENDED);
            if (!at.equals(startedAt)) {
                throw new SessionConflictException("the capture this scrape started was replaced during its window"
                        + (startedBy == null ? "" : " by one started by " + startedBy) + "; retry");
            }
            return profileNow(LiveFilter.NONE, gc, null);
        }, format, false, use);
    }

    /**
     * {@code make} (called holding the controller) and {@code use} within a reservation of heaptap's heap budget for both;
     * {@code delta}: {@code make} builds a delta, whose sites are copied once more.
     */
    private <T> T withinBudget(Supplier<AllocationProfile> make, ProfileFormat format, boolean delta,
                               Function<AllocationProfile, T> use) {
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork();
             HeapBudget.Reservation reserved = reserve(format, delta, !Thread.holdsLock(this))) {  // never wait holding the controller
            AllocationProfile profile;
            synchronized (this) {
                profile = make.get();
            }
            return use.apply(profile);
        } catch (OutOfMemoryError e) {
            // Everything built for the request is unreachable again: the application keeps its heap.
            throw new HeapBudgetException("this JVM ran out of heap while heaptap built " + what(format) + "; " + instead);
        }
    }

    /**
     * Continuous sampling's profile, cumulative since it began (whatever window runs), with the live
     * set now, handed to {@code use} within heaptap's heap budget as {@link #withProfile} does; its
     * time stamp is now and its duration the time since continuous sampling began.
     *
     * @throws SessionConflictException continuous sampling is off
     */
    public <T> T withContinuousProfile(LiveFilter filter, boolean gc, ProfileFormat format, Function<AllocationProfile, T> use) {
        return withinBudget(() -> continuousProfileNow(filter, gc, null), format, false, use);
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
        TableSizes sizes = requireAgent().tableSizes();
        // Kept for the whole window, beside room for its end (and every other request) to decode.
        HeapBudget.Reservation reserved = budget.reserveKept(DumpCost.counters(sizes), DumpCost.deltaAndEncode(sizes, format),
                "a delta scrape's baseline", instead);
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            synchronized (this) {
                DumpHeader header;
                if (continuous) {
                    header = continuousHeader(requireContinuous(), new ArrayList<>(), LiveProof.NONE);
                } else {
                    requireCaptured();
                    header = header(new ArrayList<>(), LiveProof.NONE);
                }
                SiteCounters counters = requireAgent().counters(continuous);
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
        return withinBudget(() -> since.continuous() ? continuousProfileNow(LiveFilter.NONE, gc, since)
                : profileNow(LiveFilter.NONE, gc, since), format, true, use);
    }

    /** Delta scrapes waiting out their windows now (each keeping its baseline). */
    public int deltaBaselinesOpen() {
        return baselines.size();
    }

    /** Gives back the budget of every open delta baseline: what they count from has ended. */
    private void closeBaselines() {
        baselines.forEach(DeltaBaseline::close);
    }

    private ContinuousRun requireContinuous() {
        ContinuousRun run = continuous;
        if (run == null) {
            throw new SessionConflictException("continuous sampling is off: start it with 'heaptap serve --continuous " + target.pid()
                    + "' or -javaagent:heaptap.jar=serve,continuous");
        }
        return run;
    }

    /** {@code since}: the difference from that baseline, else everything since continuous sampling began. */
    private AllocationProfile continuousProfileNow(LiveFilter filter, boolean gc, DeltaBaseline since) {
        ContinuousRun run = requireContinuous();
        if (since != null && !since.isOpen()) {
            throw new SessionConflictException("continuous sampling was restarted during the window; retry");
        }
        List<String> warnings = new ArrayList<>();
        if (gc && forceFullGc() < 0) {
            warnings.add("the forced full collection was refused by the JVM: nothing new is proven live by it");
        }
        MarkingClock clock = liveTracker.markings();
        LiveProof proof = new LiveProof(clock.provenBeforeNanos(), clock.markings(run.markingsAtStart(), run.forcedAtStart()), gc,
                clock.trackingHoldsAll()).withPolicy(liveTracker.policy());
        NativeSnapshot snapshot;
        try {
            snapshot = requireAgent().cumulativeSnapshot(filter, proof);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DumpHeader header = continuousHeader(run, warnings, proof);
        return since == null ? header.profile(snapshot) : since.delta(header, snapshot);
    }

    private DumpHeader continuousHeader(ContinuousRun run, List<String> warnings, LiveProof proof) {
        SamplerAccuracy.warningFor(Runtime.version().feature()).ifPresent(warnings::add);
        SamplerAccuracy.biasWarning(Runtime.version().feature(), jvmEvents.maxInterval()).ifPresent(warnings::add);
        SampleRateGovernor g = run.governor();
        return new DumpHeader(target, run.since(), System.nanoTime() - run.startNanos(), warnings, null, proof,
                new IntervalRange(g.minInterval(), g.maxInterval(), run.options().sampleRate()), continuousCost.cost(agent.sampleCount()));
    }

    /** The labels continuous scrapes carry, or null when continuous sampling is off. */
    public synchronized ScrapeLabels scrapeLabels() {
        return continuous == null ? null : ScrapeLabels.of(continuous, target);
    }

    private HeapBudget.Reservation reserve(ProfileFormat format, boolean delta, boolean wait) {
        TableSizes sizes = requireAgent().tableSizes();
        long estimate = format == null ? DumpCost.decode(sizes)
                : delta ? DumpCost.deltaAndEncode(sizes, format) : DumpCost.decodeAndEncode(sizes, format);
        return budget.reserve(estimate, what(format), instead, wait);
    }

    private static String what(ProfileFormat format) {
        return format == null ? "decoding the profile" : "a " + format.id() + " dump";
    }

    /** heaptap's share of this JVM's heap. */
    public HeapBudget heapBudget() {
        return budget;
    }

    /** {@code since}: the difference from that baseline, else the whole capture. */
    private AllocationProfile profileNow(LiveFilter filter, boolean gc, DeltaBaseline since) {
        List<String> warnings = new ArrayList<>();
        LiveProof proof = prove(gc, warnings);
        NativeSnapshot snapshot = snapshot(filter, proof);
        DumpHeader header = header(warnings, proof);
        return since == null ? header.profile(snapshot) : since.delta(header, snapshot);
    }

    /**
     * The proof a snapshot is judged by, read before the snapshot so that no marking vouches for
     * references checked before it; {@code gc} forces a full collection first (a refusal is added to
     * {@code warnings}).
     */
    private LiveProof prove(boolean gc, List<String> warnings) {
        requireCaptured();
        if (gc && forceFullGc() < 0) {
            warnings.add("the forced full collection was refused by the JVM: nothing new is proven live by it");
        }
        MarkingClock clock = liveTracker.markings();
        return new LiveProof(clock.provenBeforeNanos(), clock.markings(markingsAtStart, forcedAtStart), gc,
                clock.trackingHoldsAll()).withPolicy(liveTracker.policy());
    }

    private DumpHeader header(List<String> warnings, LiveProof proof) {
        long end = state == SessionState.RECORDING ? System.nanoTime() : stopNanos;
        SamplerAccuracy.warningFor(Runtime.version().feature()).ifPresent(warnings::add);
        SamplerAccuracy.biasWarning(Runtime.version().feature(), jvmEvents.maxInterval()).ifPresent(warnings::add);
        return new DumpHeader(target, startedAt, end - startNanos, warnings, gcMonitor.cost(), proof, intervals(),
                captureCost.cost(captureSamples()));
    }

    /**
     * Forces a whole-heap collection through JVMTI (even with -XX:+DisableExplicitGC) and returns how
     * long the call took (the application's pause, or on concurrent collectors the cycle it waited
     * for), or -1 if the JVM refused. Every object allocated before the call and still tracked after
     * it is proven live. <b>Pauses the application.</b>
     */
    synchronized long forceFullGc() {
        Sampler native_ = requireAgent();
        liveTracker.markings().beginForced();
        long collections = gcBeans.collectionCount();
        long began = System.nanoTime();
        // A collection that did not run (refused, or skipped: a JNI critical region held the GC locker) proves nothing.
        if (!native_.forceGc() || gcBeans.collectionCount() == collections) {
            liveTracker.markings().cancelForced();
            return -1;
        }
        long took = System.nanoTime() - began;
        liveTracker.markings().forced(began);  // markings() reads the GC clocks first: the agent's count includes this collection
        return took;
    }

    /** The marking clock as of now, for the capture's window. */
    synchronized Markings markings() {
        return liveTracker == null ? Markings.NONE : liveTracker.markings().markings(markingsAtStart, forcedAtStart);
    }

    private void requireCaptured() {
        if (state == SessionState.IDLE) {
            throw new SessionConflictException("nothing to dump: no capture has run since the agent was loaded or reset");
        }
    }

    /** The profile encoded in a format, within heaptap's heap budget. */
    public byte[] dump(ProfileFormat format, LiveFilter filter, boolean gc) {
        return withProfile(filter, gc, format, profile -> ProfileWriter.toBytes(profile, format));
    }

    /**
     * Opens a raw dump ({@link RawDump}) of the current or last capture for a client that decodes it
     * itself (the CLI): the capture stays in native memory and is read in chunks, so the target's
     * heap holds one chunk at a time, whatever the profile's size. {@code gc} forces a full
     * collection first, as for {@link #profile}. Returns the dump's id.
     */
    public String openRawDump(boolean gc) {
        synchronized (this) {
            rawDumps.admit();  // busy is refused before the snapshot (or a forced collection) is made
            RawSnapshot snapshot;
            List<String> warnings = new ArrayList<>();
            LiveProof proof = prove(gc, warnings);
            try {
                snapshot = requireAgent().openSnapshot(proof);
            } catch (IOException e) {
                throw new SessionConflictException(e.getMessage());
            }
            String id;
            try {
                id = rawDumps.open(RawDump.prefix(header(warnings, snapshot.proof())), snapshot);
            } catch (RuntimeException | Error e) {
                snapshot.close();  // never a native slot without an owner (closing twice is harmless)
                throw e;
            }
            endedCaptureFetched |= state == SessionState.STOPPED;
            return id;
        }
    }

    /** Up to {@code maxBytes} of a raw dump from {@code offset} (at most 256 KiB); empty at its end. */
    public byte[] readRawDump(String id, long offset, int maxBytes) {
        try {
            return rawDumps.read(id, offset, maxBytes);
        } catch (IOException e) {
            throw new SessionConflictException(e.getMessage());
        }
    }

    /** Frees a raw dump; harmless if it is gone already. */
    public void closeRawDump(String id) {
        rawDumps.close(id);
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
        int[] ids;
        long tracked = 0;
        synchronized (this) {
            if (state == SessionState.IDLE) {
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
            PathSearch search = requireAgent().referencePaths(ids, options.maxPaths(), options.maxDepth(), options.maxObjects(),
                    options.timeLimit());
            return new PathReport(label, ids.length, tracked, search);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** JNI weak references the agent holds (0 after reset). */
    public long weakRefs() {
        return agent == null ? 0 : agent.weakRefs();
    }

    private NativeSnapshot snapshot(LiveFilter filter, LiveProof proof) {
        try {
            return requireAgent().snapshot(filter, proof);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Sampler requireAgent() {
        if (agent == null) {
            throw new AgentUnavailableException("heaptap's native agent is unavailable in this JVM: " + nativeError);
        }
        return agent;
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
