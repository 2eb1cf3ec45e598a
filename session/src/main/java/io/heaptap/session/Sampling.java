package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.Sampler;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.nativeagent.Snapshots;
import io.heaptap.profile.IntervalRange;
import io.heaptap.profile.Markings;
import io.heaptap.profile.TargetInfo;
import io.heaptap.profile.format.TerminalText;
import io.heaptap.wire.CounterWindow;
import io.heaptap.wire.DumpHeader;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.SiteCounters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The owner of the sampler: starts and stops captures and continuous sampling, keeps the time box,
 * and runs the sample-rate governor. Its monitor is the session's lock: {@link ProfileReader} takes
 * it to read the counters while no start, stop or reset can change them, and {@link LeakWatch} to
 * act on a state that stays put.
 *
 * <p>What others keep of the counters is told through {@link Hooks}, called under the lock.
 */
final class Sampling {
    /** Why a capture ended when its box ran out (the timer, or a scrape's answer): SessionListener's. */
    static final String TIME_BOX_ENDED = "time box ended";
    /**
     * How often a sample-rate target reads the sample count: a storm costs at most this long at the
     * old interval (from the 32 KiB floor at 5 GB/s, 16,000 samples in 100 ms rather than 160,000 in
     * a second). At the 5,000/s default a reading holds about 500 samples, a 4.5% noise well inside
     * the band [target/2, 2 x target] that makes the governor jump (it trims over a second or more).
     */
    static final long GOVERNOR_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final int MAX_CLIENT_CHARS = 200;
    /** Nominal native time box of continuous sampling: it runs until stopped (100 years). */
    static final Duration CONTINUOUS_NATIVE_DURATION = Duration.ofDays(36_500);

    /** What the owners of things built on the counters are told. Called under the session's lock. */
    interface Hooks {
        /** The counters start again from zero, or what they counted from has ended: baselines count nothing now. */
        void countersRestarted();

        /** The last capture's profile is gone (continuous sampling starts the counters from zero). */
        void profileDropped();

        /** A capture started or ended: anything cached of the profile is stale. */
        void captureChanged();

        /** The capture started at {@code startedAt} ended (after the listeners heard it). */
        void captureEnded(Instant startedAt, String reason);
    }

    private final Sampler agent;
    private final String nativeError;
    private final LiveTracker liveTracker;
    private final GcBeans gcBeans;
    private final LargeObjects largeObjects;
    private final GcMonitor gcMonitor;
    private final ScheduledExecutorService timer;
    private final TargetInfo target;
    private final HeapBudget budget;
    private final List<SessionListener> listeners;
    private final Hooks hooks;
    /** The sample callback's time so far in nanoseconds (0 without the native agent): what the samples cost. */
    private final LongSupplier callbackNanos;
    /** The process's CPU time so far in nanoseconds, negative when unknown: what a sample cost budget is a share of. */
    private final LongSupplier processCpuNanos;
    /** The JVM's own sampling events, priced on JDK 11-24: part of what sampling costs. */
    private final JvmEvents jvmEvents;
    /** What the current or last capture's sampling cost, and continuous sampling's since it began. */
    private final SamplingCostMeter captureCost;
    private final SamplingCostMeter continuousCost;
    private final AllocationRate allocationRate = new AllocationRate();

    /** The current or last capture; null when idle. */
    private Capture capture;
    /** The heap budget the capture's window counters hold (a capture during continuous sampling); null for none. */
    private HeapBudget.Reservation windowHeld;
    private ScheduledFuture<?> deadline;
    /** Moves the interval of a capture with a sample-rate target; null for a fixed interval. */
    private SampleRateGovernor governor;
    private ScheduledFuture<?> governing;
    /** Continuous sampling, or null when off; while it runs a capture is a window over it. */
    private ContinuousRun continuous;
    private ScheduledFuture<?> continuousGoverning;
    /**
     * Whether the ended capture's profile went to a client (a dump, a raw dump). Continuous sampling
     * starts the counters from zero, so it is refused while an ended capture nobody has fetched would
     * be lost with them.
     */
    private boolean endedCaptureFetched;

    /**
     * @param sampler     the allocation sampler (the native agent; a fake in unit tests), or null
     * @param nativeError why there is no sampler (every capture is then refused with it), or null
     */
    Sampling(Sampler sampler, String nativeError, GcBeans gcBeans, ScheduledExecutorService timer, TargetInfo target,
             HeapBudget budget, List<SessionListener> listeners, Hooks hooks) {
        this.agent = sampler;
        this.nativeError = nativeError;
        this.liveTracker = sampler == null ? null : new LiveTracker(sampler.live(), gcBeans);
        this.gcBeans = gcBeans;
        this.largeObjects = LargeObjects.forThisJvm(gcBeans);
        this.gcMonitor = new GcMonitor(gcBeans);
        this.timer = timer;
        this.target = target;
        this.budget = budget;
        this.listeners = listeners;
        this.hooks = hooks;
        this.processCpuNanos = gcBeans::processCpuNanos;
        this.callbackNanos = () -> agent == null ? 0 : agent.sampleNanos();
        this.jvmEvents = new JvmEvents(Runtime.version().feature(), () -> agent == null ? 0 : agent.jvmEvents(),
                () -> agent == null ? 0 : agent.jvmIntervalBytes());
        this.captureCost = new SamplingCostMeter(callbackNanos, processCpuNanos, jvmEvents::events);
        this.continuousCost = new SamplingCostMeter(callbackNanos, processCpuNanos, jvmEvents::events);
    }

    /** See {@link Controller#start}. */
    Instant start(CaptureOptions requested, String client) {
        // Refused before reserving: a start while one runs hears "already running" at once, not after waiting for the budget.
        requireNotRecording();
        // A window keeps its counters under the heap budget: reserved before the lock, as every read of them is.
        ContinuousRun run = continuous();
        HeapBudget.Reservation held = run == null ? null : reserveWindow(run);
        try {
            synchronized (this) {
                Instant at = start(requested, client, held);
                held = null;  // the capture's now
                return at;
            }
        } finally {
            if (held != null) {
                held.close();
            }
        }
    }

    private synchronized void requireNotRecording() {
        if (state() == SessionState.RECORDING) {
            throw new SessionConflictException("a capture is already running: started by " + capture.startedBy() + " at "
                    + capture.startedAt() + ", ends at " + capture.endsAt() + "; stop it first or wait");
        }
    }

    private HeapBudget.Reservation reserveWindow(ContinuousRun run) {
        try {
            return budget.reserveKept(DumpCost.window(run.options().maxStacks()), 0, "a capture's window over continuous sampling",
                    "stop continuous sampling first, or capture on a larger heap");
        } catch (HeapBudgetException e) {
            throw new HeapBudgetException("a capture during continuous sampling keeps the counters at its start and end on the"
                    + " heap, and they do not fit now: " + e.getMessage());
        }
    }

    /** {@code held}: the budget reserved for a window's counters, given to the capture if it is one, else closed. */
    private Instant start(CaptureOptions requested, String client, HeapBudget.Reservation held) {
        Sampler sampler = requireAgent();
        requireNotRecording();
        if (continuous != null) {
            if (held == null) {
                throw new SessionConflictException("continuous sampling started while this capture started; retry");
            }
            return startWindow(sampler, requested, client, held);
        }
        if (held != null) {
            held.close();
        }
        startSampler(sampler, requested, requested.duration(), requested.liveBytes(), requested.live(), captureCost);
        hooks.countersRestarted();
        beginRecording(requested, client, CounterWindow.ALL);
        governor = requested.adaptive() ? newGovernor(requested, sampler.sampleCount(), capture.startNanos()) : null;
        if (governor != null) {
            allocationRate.next(capture.startNanos());
            governing = timer.scheduleAtFixedRate(this::governSampleRate, GOVERNOR_PERIOD_NANOS, GOVERNOR_PERIOD_NANOS,
                    TimeUnit.NANOSECONDS);
        }
        announceStart();
        return capture.startedAt();
    }

    /**
     * Starts the sampler afresh for {@code o} over {@code nativeBox}, with the live tracker when
     * {@code tracked}, and its cost {@code meter}. {@code liveBytes}: the byte bound asked for (0: the collector's).
     */
    private void startSampler(Sampler sampler, CaptureOptions o, Duration nativeBox, double liveBytes, boolean tracked,
                              SamplingCostMeter meter) {
        try {
            LiveBound bound = liveTracker.bound(largeObjects, liveBytes);  // refuses a bound beyond its cap
            if (tracked) {
                liveTracker.start();
            }
            meter.start(budgetShare(o));
            sampler.start(new SamplerSettings(o.intervalBytes(), nativeBox, o.stackDepth(), o.maxStacks(),
                    o.live() ? o.liveBudget() : 0, largeObjects.threshold(), largeObjects.budget())
                    .withByteBudgets(bound.mainBytes(), bound.largeBytes(), bound.strict()));
            jvmEvents.resetMaxInterval();  // the capture's largest JVM interval is its own from here
        } catch (NativeAgentException e) {
            throw new SessionConflictException(e.getMessage());
        }
    }

    private void announceStart() {
        if (!listeners.isEmpty()) {
            SessionStatus started = status();
            listeners.forEach(l -> l.captureStarted(started));
        }
    }

    /** What every capture does once its sampling runs, a window over continuous sampling or not. */
    private void beginRecording(CaptureOptions requested, String client, CounterWindow counted) {
        gcMonitor.start(timer);
        dropCapture();
        capture = Capture.begin(requested, clientLabel(client), liveTracker.markings(), counted);
        endedCaptureFetched = false;
        hooks.captureChanged();
        deadline = timer.schedule(this::timeBoxEnded, requested.duration().toNanos(), TimeUnit.NANOSECONDS);
        cancelGoverning();
    }

    /**
     * A capture while continuous sampling runs: a window over the same sampler, which is neither
     * restarted nor reset. It keeps the continuous depth (another is refused: stacks of two depths
     * would not add up), and runs at the continuous sample-rate target and live budget whatever it
     * asked for (the status and the profile say the intervals in force). Its profile is what was
     * counted between its start and its end (the counters read then, a {@link CounterWindow} held under
     * {@code held}), its time box its own.
     */
    private Instant startWindow(Sampler sampler, CaptureOptions requested, String client, HeapBudget.Reservation held) {
        int depth = continuous.options().stackDepth();
        if (requested.stackDepth() != depth) {
            throw new SessionConflictException("continuous sampling runs at stack depth " + depth + " and a capture during it"
                    + " is a window over the same sampler: ask for depth " + depth + " (--depth " + depth + "), or stop"
                    + " continuous sampling first");
        }
        SiteCounters from = counters(sampler);
        held.keepOnly(from.heapBytes() + DumpCost.windowEnd(continuous.options().maxStacks()));
        captureCost.start(budgetShare(continuous.options()));
        beginRecording(requested, client, CounterWindow.since(from));
        windowHeld = held;
        governor = continuous.governor();  // the window reports the continuous interval; only continuous governs it
        announceStart();
        return capture.startedAt();
    }

    /** See {@link Controller#startContinuous}. */
    synchronized ContinuousRun startContinuous(String service, String client) {
        Sampler sampler = requireAgent();
        if (continuous != null) {
            throw new SessionConflictException("continuous sampling runs already, " + continuous.describe());
        }
        if (state() == SessionState.RECORDING) {
            throw new SessionConflictException("a capture is running: started by " + capture.startedBy() + " at "
                    + capture.startedAt() + "; stop it first, then start continuous sampling");
        }
        if (state() == SessionState.STOPPED && !endedCaptureFetched) {
            throw new SessionConflictException("the last capture (started by " + capture.startedBy() + " at " + capture.startedAt()
                    + ", " + captureSamples() + " samples) has not been dumped, and continuous sampling starts the counters from"
                    + " zero: dump it first ('heaptap dump " + target.pid() + "'), or drop it ('heaptap reset " + target.pid()
                    + "'), then start continuous sampling");
        }
        // No live tracking by default where weak references keep young garbage (docs/continuous.md): days of it,
        // even bounded, are heap the application pays for a view nobody asked for.
        CaptureOptions o = CaptureOptions.defaultSampling(CaptureOptions.MAX_DURATION, CaptureOptions.DEFAULT_DEPTH,
                ContinuousRun.maxStacksFor(budget.bytes()), !liveTracker.strict(), CaptureOptions.DEFAULT_LIVE_BUDGET);
        startSampler(sampler, o, CONTINUOUS_NATIVE_DURATION, 0, true, continuousCost);
        // The counters start from zero: an earlier capture's profile is gone.
        hooks.profileDropped();
        hooks.countersRestarted();
        dropCapture();
        governor = null;
        hooks.captureChanged();
        long now = System.nanoTime();
        // Escaped and cut as a client label is: anyone who can start it names it, and status prints it.
        MarkingClock clock = liveTracker.markings();
        continuous = new ContinuousRun(Instant.now(), now, service == null || service.isBlank() ? target.serviceName()
                : clientLabel(service), o, newGovernor(o, sampler.sampleCount(), now), clock.completed(), clock.forcedCount());
        allocationRate.next(now);
        continuousGoverning = timer.scheduleAtFixedRate(this::governContinuous, GOVERNOR_PERIOD_NANOS, GOVERNOR_PERIOD_NANOS,
                TimeUnit.NANOSECONDS);
        return continuous;
    }

    /** See {@link Controller#stopContinuous}. */
    synchronized void stopContinuous() {
        if (continuous == null) {
            return;
        }
        if (state() == SessionState.RECORDING) {
            stopSampling("continuous sampling stopped");
        }
        continuousGoverning.cancel(false);
        continuousGoverning = null;
        agent.stop();
        continuous = null;
        hooks.countersRestarted();  // a delta scrape waiting on it gives its budget back and is refused now
    }

    synchronized ContinuousRun continuous() {
        return continuous;
    }

    private synchronized void governContinuous() {
        if (continuous != null) {
            govern(continuous.governor());
        }
    }

    /** Every 100 ms while a capture with a sample-rate target records: the interval follows the rate. */
    private synchronized void governSampleRate() {
        if (state() == SessionState.RECORDING && governor != null) {
            govern(governor);
        }
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
        jvmEvents.events();  // notes the JVM interval just set, for the bias warning (maxInterval)
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

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private synchronized void timeBoxEnded() {
        if (state() == SessionState.RECORDING && capture.boxEnded(System.nanoTime())) {
            stopSampling(TIME_BOX_ENDED);
        }
    }

    synchronized void stop() {
        if (state() == SessionState.RECORDING) {
            stopSampling("stopped");
        }
    }

    synchronized void stopIfStartedAt(Instant at, String reason) {
        if (state() == SessionState.RECORDING && at.equals(capture.startedAt())) {
            stopSampling(reason);
        }
    }

    private void stopSampling(String reason) {
        CounterWindow counted = capture.counted();
        if (continuous != null) {
            counted = counted.endedAt(counters(agent));  // continuous sampling goes on; the window's counters stop here
            windowHeld.keepOnly(counted.heapBytes());
        } else {
            agent.stop();
        }
        cancelGoverning();
        capture = capture.ended(System.nanoTime(), counted);
        captureCost.stop(capture.samples(agent.sampleCount()));
        gcMonitor.stop();
        hooks.captureChanged();
        cancelDeadline();
        SessionStatus ended = status();
        listeners.forEach(l -> l.captureEnded(ended, reason));
        hooks.captureEnded(capture.startedAt(), reason);
    }

    /** Refused while continuous sampling runs: scrapers rely on its counters never going back. */
    synchronized void requireResettable() {
        if (continuous != null) {
            throw new SessionConflictException("continuous sampling runs (" + continuous.describe() + ") and its counters are"
                    + " never reset, so scrapers can subtract them; stop a capture with stop, or stop continuous sampling first");
        }
    }

    /** Forgets the capture and the sampler's counters; see {@link Controller#reset}. */
    synchronized void reset() {
        requireResettable();
        cancelDeadline();
        hooks.profileDropped();
        hooks.countersRestarted();
        cancelGoverning();
        governor = null;
        if (agent != null) {
            liveTracker.stop();
            agent.clear();
        }
        gcMonitor.reset();
        dropCapture();
        hooks.captureChanged();
    }

    synchronized SessionState state() {
        return capture == null ? SessionState.IDLE : capture.recording() ? SessionState.RECORDING : SessionState.STOPPED;
    }

    /** The current or last capture; null when idle. */
    synchronized Capture capture() {
        return capture;
    }

    /** A client has the ended capture's profile: continuous sampling may start the counters from zero. */
    synchronized void fetched() {
        endedCaptureFetched |= state() == SessionState.STOPPED;
    }

    synchronized SessionStatus status() {
        SessionState state = state();
        Capture c = capture;
        long samples = state == SessionState.IDLE ? 0 : captureSamples();
        long memory = agent == null ? 0 : agent.nativeMemoryBytes();
        return new SessionStatus(state, c == null ? null : c.startedBy(), c == null ? null : c.startedAt(),
                c == null ? null : c.endsAt(), c == null ? 0 : c.leftMillis(System.nanoTime()), c == null ? null : c.options(),
                samples, memory, nativeError, state == SessionState.IDLE ? null : gcMonitor.cost(),
                c == null ? 0 : currentInterval(), intervals(),
                continuous == null ? "" : continuous.describe() + ", " + agent.sampleCount() + " samples",
                state == SessionState.IDLE ? null : captureCost.cost(samples));
    }

    /** Forgets the capture, giving back what its window's counters held. */
    private void dropCapture() {
        capture = null;
        if (windowHeld != null) {
            windowHeld.close();
            windowHeld = null;
        }
    }

    /**
     * The sampler's counters now (a window's start or end), read as heaptap's work so that reading them
     * is never sampled as the application's. A slot for the snapshot is free under the session's lock
     * (RawDumps keeps one).
     */
    private static SiteCounters counters(Sampler sampler) {
        try (NativeAgent.HeaptapWork marked = NativeAgent.heaptapWork()) {
            return sampler.snapshots().counters();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Samples the current or last capture kept (a window's own, during continuous sampling). */
    private long captureSamples() {
        return capture.samples(agent.sampleCount());
    }

    /** The share of the CPU a capture's sample callback is kept under: 0 unless its options are the cost-bounded default. */
    private static double budgetShare(CaptureOptions o) {
        return o.costBounded() ? SampleCostBudget.CPU_SHARE : 0;
    }

    private long currentInterval() {
        return governor == null ? capture.options().intervalBytes() : governor.interval();
    }

    /** The intervals the current or last capture ran at; null when idle. */
    private IntervalRange intervals() {
        if (capture == null) {
            return null;
        }
        CaptureOptions options = capture.options();
        int rate = continuous != null && governor == continuous.governor() ? continuous.options().sampleRate() : options.sampleRate();
        return governor == null ? IntervalRange.fixed(options.intervalBytes())
                : new IntervalRange(governor.minInterval(), governor.maxInterval(), rate);
    }

    /**
     * The proof a snapshot of the capture is judged by, read before the snapshot so that no marking
     * vouches for references checked before it; {@code gc} forces a full collection first (a refusal
     * is added to {@code warnings}).
     */
    synchronized LiveProof prove(boolean gc, List<String> warnings) {
        Capture c = requireCaptured();
        return proof(gc, warnings, c.markingsAtStart(), c.forcedAtStart());
    }

    /** The same for continuous sampling's snapshot, counted since it began. */
    synchronized LiveProof proveContinuous(ContinuousRun run, boolean gc, List<String> warnings) {
        return proof(gc, warnings, run.markingsAtStart(), run.forcedAtStart());
    }

    private LiveProof proof(boolean gc, List<String> warnings, long markingsAtStart, long forcedAtStart) {
        if (gc && forceFullGc() < 0) {
            warnings.add("the forced full collection was refused by the JVM: nothing new is proven live by it");
        }
        MarkingClock clock = liveTracker.markings();
        return new LiveProof(clock.provenBeforeNanos(), clock.markings(markingsAtStart, forcedAtStart), gc,
                clock.trackingHoldsAll()).withPolicy(liveTracker.policy());
    }

    /** The header of a snapshot of the current (so far) or last capture. */
    synchronized DumpHeader header(List<String> warnings, LiveProof proof) {
        Capture c = requireCaptured();
        addAccuracyWarnings(warnings);
        return new DumpHeader(target, c.startedAt(), c.recordedNanos(System.nanoTime()), warnings, gcMonitor.cost(), proof,
                intervals(), captureCost.cost(captureSamples()));
    }

    /** The header of continuous sampling's snapshot: since it began, until now. */
    synchronized DumpHeader continuousHeader(ContinuousRun run, List<String> warnings, LiveProof proof) {
        addAccuracyWarnings(warnings);
        SampleRateGovernor g = run.governor();
        return new DumpHeader(target, run.since(), System.nanoTime() - run.startNanos(), warnings, null, proof,
                new IntervalRange(g.minInterval(), g.maxInterval(), run.options().sampleRate()), continuousCost.cost(agent.sampleCount()));
    }

    private void addAccuracyWarnings(List<String> warnings) {
        SamplerAccuracy.warningFor(Runtime.version().feature()).ifPresent(warnings::add);
        SamplerAccuracy.biasWarning(Runtime.version().feature(), jvmEvents.maxInterval()).ifPresent(warnings::add);
    }

    /**
     * Forces a whole-heap collection through JVMTI (even with -XX:+DisableExplicitGC) and returns how
     * long the call took (the application's pause, or on concurrent collectors the cycle it waited
     * for), or -1 if the JVM refused or the collection did not run. Every object allocated before the call and still tracked after
     * it is proven live. <b>Pauses the application.</b>
     */
    synchronized long forceFullGc() {
        Sampler sampler = requireAgent();
        liveTracker.markings().beginForced();
        long collections = gcBeans.collectionCount();
        long began = System.nanoTime();
        // A collection that did not run (refused, or skipped: a JNI critical region held the GC locker) proves nothing.
        if (!sampler.forceGc() || gcBeans.collectionCount() == collections) {
            liveTracker.markings().cancelForced();
            return -1;
        }
        long took = System.nanoTime() - began;
        liveTracker.markings().forced(began);  // markings() reads the GC clocks first: the agent's count includes this collection
        return took;
    }

    /** The marking clock as of now, for the capture's window. */
    synchronized Markings markings() {
        if (liveTracker == null) {
            return Markings.NONE;
        }
        return capture == null ? liveTracker.markings().markings(0, 0)
                : liveTracker.markings().markings(capture.markingsAtStart(), capture.forcedAtStart());
    }

    synchronized Capture requireCaptured() {
        if (capture == null) {
            throw new SessionConflictException("nothing to dump: no capture has run since the agent was loaded or reset");
        }
        return capture;
    }

    synchronized ContinuousRun requireContinuous() {
        ContinuousRun run = continuous;
        if (run == null) {
            throw new SessionConflictException("continuous sampling is off: start it with 'heaptap serve --continuous " + target.pid()
                    + "' or -javaagent:heaptap.jar=serve,continuous");
        }
        return run;
    }

    /** The sampler's reads; see {@link #requireAgent}. */
    Snapshots snapshots() {
        return requireAgent().snapshots();
    }

    Sampler requireAgent() {
        if (agent == null) {
            throw new AgentUnavailableException("heaptap's native agent is unavailable in this JVM: " + nativeError);
        }
        return agent;
    }

    /** Sizes of the tracked objects no marking has examined yet, now (0 without the agent). */
    long unexaminedBytes() {
        return agent == null ? 0 : agent.live().liveHold().unexaminedBytes();
    }

    /** JNI weak references the agent holds (0 after reset). */
    long weakRefs() {
        return agent == null ? 0 : agent.live().weakRefs();
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

    /** The thread heaptap's timers run on: marked as heaptap's, so its allocations are not sampled. */
    static Thread timerThread(Runnable r) {
        Thread t = new Thread(NativeAgent.heaptapThread(r), "heaptap-timer");
        t.setDaemon(true);
        return t;
    }
}
