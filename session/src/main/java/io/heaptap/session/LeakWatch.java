package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.Markings;
import io.heaptap.profile.census.CensusHistory;
import io.heaptap.profile.census.ClassCensus;
import io.heaptap.profile.census.HeldByTracking;
import io.heaptap.profile.leak.LeakHistory;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.profile.leak.LeakWatchInfo;
import io.heaptap.profile.leak.SiteKey;
import io.heaptap.profile.leak.Verdict;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A leak watch inside the target: keeps a capture running for the whole duration (re-armed when
 * its time box ends first), takes a live snapshot every step, and keeps the per-site history and
 * the ranking, so the MBean and HTTP can show it at any time and a lost client loses nothing.
 *
 * <p>It is a client of the session, with a lock of its own: it starts, stops and reads captures through
 * the {@link Controller} like any door, so a snapshot's decoding never holds the session's lock, and a
 * status or a scrape never waits for a watch. The order is always this lock, then the session's. The
 * session tells it that a capture ended while holding the session's lock, so that news is handed to
 * the timer and acted on under this lock alone.
 */
final class LeakWatch {
    /** A suspect is announced once its verdict is at least this sure, so one noisy step does not notify. */
    static final double NOTIFY_CONFIDENCE = 0.5;
    /** Warnings kept per watch: a fault that repeats every step must not grow memory for days. */
    static final int MAX_WARNINGS = 10;
    /**
     * The per-site history may keep this share of heaptap's heap budget (a quarter: 1 MiB of a 64 MiB heap, 16 MiB from
     * 1 GiB up), reserved from the budget while it lives, so every other request still has the rest to decode in.
     */
    static final int HISTORY_SHARE = 4;

    enum State {
        IDLE, WATCHING, ENDED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The watch's lock; taken before the session's, never while holding it. */
    private final Object lock = new Object();
    private final Controller controller;
    private final ScheduledExecutorService timer;
    private final List<SessionListener> listeners;
    private final long pid;
    private final ClassCensusTaker census;
    private final java.util.function.Supplier<NoMarkingCause.Facts> facts;

    /**
     * The state and the report it shows, published together: written under the lock, read without it, so a
     * status never waits for a snapshot being taken, and never pairs one watch's state with another moment's report.
     */
    private volatile View view = new View(State.IDLE, null);
    private LeakWatchOptions options;
    private String client;
    private Instant startedAt;
    private long startNanos;
    private String endReason = "";
    private final List<String> warnings = new ArrayList<>();
    private final java.util.ArrayDeque<Long> pausesMillis = new java.util.ArrayDeque<>();
    private long maxPauseMillis;
    private LeakHistory history;
    /** The heap budget the history holds, from a watch's start until the next start or a reset; null without one. */
    private HeapBudget.Reservation historyHeld;
    /** The class censuses taken after each forced collection (--gc), else null. */
    private CensusHistory censuses;
    private final Set<SiteKey> announced = new HashSet<>();
    /** When the capture this watch started began (it names it), or null while the watch has none running. */
    private Instant ownCapture;
    // Which watch is current. A timer task names the watch it was scheduled for: cancel(false) cannot
    // stop one that already fired and waits for the lock, and it must not act on a watch started since.
    private long watches;
    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();

    LeakWatch(Controller controller, ScheduledExecutorService timer, List<SessionListener> listeners, long pid, ClassCensusTaker census,
              java.util.function.Supplier<NoMarkingCause.Facts> facts) {
        this.controller = controller;
        this.timer = timer;
        this.listeners = listeners;
        this.pid = pid;
        this.census = census;
        this.facts = facts;
    }

    /** Starts a watch; refused while a watch or another capture runs. */
    void start(LeakWatchOptions requested, String by) {
        synchronized (lock) {
            startWatching(requested, by);
        }
    }

    private void startWatching(LeakWatchOptions requested, String by) {
        if (view.state() == State.WATCHING) {
            throw new SessionConflictException("a leak watch is already running: started by " + client + " at " + startedAt
                    + ", ends at " + startedAt.plus(options.duration()) + "; stop it first or wait");
        }
        long historyBytes = reserveHistory();
        options = requested;
        client = by;
        startedAt = Instant.now();
        startNanos = System.nanoTime();
        endReason = "";
        warnings.clear();
        pausesMillis.clear();
        maxPauseMillis = 0;
        history = new LeakHistory(historyBytes);
        censuses = requested.gc() ? new CensusHistory(census.reading(), census.slack()) : null;
        announced.clear();
        try {
            armCapture();
        } catch (RuntimeException refused) {
            view = new View(State.IDLE, null);  // someone else's capture runs, or nothing can be sampled
            releaseHistory();
            throw refused;
        }
        long watch = ++watches;
        long every = requested.every().toNanos();
        timer.execute(() -> rehearse(watch));
        tasks.add(timer.scheduleAtFixedRate(() -> step(watch), every, every, TimeUnit.NANOSECONDS));
        tasks.add(timer.schedule(() -> finish(watch), requested.duration().toNanos(), TimeUnit.NANOSECONDS));
        view = new View(State.WATCHING, LeakReport.of(info(State.WATCHING), history.sites(), censuses));
    }

    /**
     * Reserves the new watch's history from heaptap's heap budget, after giving back the previous watch's, whose report
     * the new one replaces (when the reservation is refused, that report goes too: the watch did not start).
     *
     * @throws HeapBudgetException delta scrapes keep too much of the budget now
     */
    private long reserveHistory() {
        releaseHistory();
        HeapBudget budget = controller.heapBudget();
        long bytes = Math.min(LeakHistory.MAX_BYTES, budget.bytes() / HISTORY_SHARE);
        try {
            historyHeld = budget.reserveKept(bytes, 0, "a leak watch's history", "retry when the delta scrapes end");
        } catch (HeapBudgetException e) {
            view = new View(State.IDLE, null);
            history = null;
            censuses = null;
            throw e;
        }
        return bytes;
    }

    private void releaseHistory() {
        if (historyHeld != null) {
            historyHeld.close();
            historyHeld = null;
        }
    }

    private void armCapture() {
        long left = options.duration().toNanos() - (System.nanoTime() - startNanos);
        // A little past the watch's end, so its last snapshot still sees the capture running.
        Duration box = Duration.ofNanos(Math.max(left, 0)).plus(options.every());
        if (box.compareTo(CaptureOptions.MAX_DURATION) > 0) {
            box = CaptureOptions.MAX_DURATION;
        }
        CaptureOptions capture = new CaptureOptions(box, options.intervalBytes(), CaptureOptions.DEFAULT_DEPTH,
                CaptureOptions.DEFAULT_MAX_STACKS, true, CaptureOptions.DEFAULT_LIVE_BUDGET);
        ownCapture = controller.start(capture, "leak watch of " + client);
    }

    private boolean isCurrent(long watch) {
        return view.state() == State.WATCHING && watch == watches;
    }

    private void step(long watch) {
        synchronized (lock) {
            if (!isCurrent(watch)) {
                return;
            }
            long elapsed = System.nanoTime() - startNanos;
            // The end's own snapshot is near: two snapshots a moment apart tell nothing.
            if (elapsed + options.every().toNanos() / 2 < options.duration().toNanos()) {
                snapshotSafely();
            }
        }
    }

    /** Before the first snapshot (the timer runs one task at a time): see {@link SnapshotRehearsal}. */
    private void rehearse(long watch) {
        LeakWatchInfo shown;
        boolean gc;
        synchronized (lock) {
            if (!isCurrent(watch)) {
                return;
            }
            shown = info();
            gc = options.gc();
        }
        // Outside the watch's lock: the rehearsal builds only scratch objects, and its decode takes the sampling's lock,
        // under which a caller may end the watch (StatusReportTest ends it inside a status read). Under the watch's lock
        // the two deadlocked, at the watch's start, where a snapshot never runs.
        try {
            SnapshotRehearsal.run(controller, shown, gc, census.reading(), census.slack());
        } catch (RuntimeException e) {
            // Only a help: the first snapshot loads what the rehearsal could not, and says what went wrong if it fails too.
        }
    }

    private void finish(long watch) {
        synchronized (lock) {
            if (isCurrent(watch)) {
                endWatching("duration reached");
            }
        }
    }

    /** Ends the watch with a last snapshot, and stops its capture. Harmless unless watching. */
    void end(String reason) {
        synchronized (lock) {
            endWatching(reason);
        }
    }

    private void endWatching(String reason) {
        if (view.state() != State.WATCHING) {
            return;
        }
        if (controller.status().state() != SessionState.IDLE) {
            snapshotSafely();
        }
        endReason = reason;
        tasks.forEach(t -> t.cancel(false));
        tasks.clear();
        if (ownCapture != null) {
            Instant started = ownCapture;
            ownCapture = null;
            controller.stopIfStartedAt(started, "stopped");
        }
        view = new View(State.ENDED, LeakReport.of(info(State.ENDED), history.sites(), censuses));
    }

    /**
     * The session's capture that began at {@code startedAt} ended. Called under the session's lock, so it
     * only hands the news to the timer: there, a stop by a user ends the watch, and a capture whose box
     * ran out first (or whose scrape went away) is re-armed.
     */
    void captureEnded(Instant startedAt, String reason) {
        timer.execute(() -> ownCaptureEnded(startedAt, reason));
    }

    private void ownCaptureEnded(Instant startedAt, String reason) {
        synchronized (lock) {
            // Not this watch's capture: another client's, or one the watch stopped itself.
            if (view.state() != State.WATCHING || !startedAt.equals(ownCapture)) {
                return;
            }
            ownCapture = null;
            if (reason.equals("stopped")) {
                endWatching("the capture was stopped");
                return;
            }
            if (controller.status().state() == SessionState.RECORDING) {
                warn("the capture could not be re-armed at " + Instant.now() + ": another capture runs");
                return;
            }
            try {
                armCapture();
            } catch (RuntimeException e) {
                warn("the capture could not be re-armed at " + Instant.now() + ": " + e.getMessage());
            }
        }
    }

    /**
     * The agent's state is to be forgotten: ends the watch (stopping its capture), then runs
     * {@code reset} (which takes the session's lock) with no watch able to start in between.
     * {@code check} runs first and may refuse, leaving the watch as it was.
     */
    void forgetAround(Runnable check, Runnable reset) {
        synchronized (lock) {
            check.run();
            endWatching("reset");
            reset.run();
            releaseHistory();
            history = null;
            censuses = null;
            options = null;
            view = new View(State.IDLE, null);
        }
    }

    private void snapshotSafely() {
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        if (elapsedMillis <= history.lastMillis()) {
            return;
        }
        try {
            ClassCensus counted = options.gc() ? forceGc() : null;
            boolean compacted = counted != null && census.compactedFully();
            AllocationProfile profile = null;
            try {
                profile = controller.profile(LiveFilter.NONE, false);
            } finally {
                if (counted != null) {
                    // What tracking held unexamined when the census counted: by class from the profile decoded right after
                    // it, or the agent's total when that failed.
                    censuses.add(counted, profile != null ? HeldByTracking.of(profile)
                            : HeldByTracking.total(controller.trackedUnexaminedBytes()), compacted);
                }
            }
            history.add(elapsedMillis, profile);
            view = new View(view.state(), LeakReport.of(info(), history.sites(), censuses));
            announceNewSuspects();
        } catch (RuntimeException e) {
            // Never let an exception end the timer thread or reach the application's stderr.
            warn("a snapshot failed at " + Instant.now() + ": " + e.getMessage());
        }
    }

    /**
     * --gc: a full collection before the snapshot proves what is live; its pause is measured and reported.
     * A class census of the whole heap follows it (its own short pause, no second collection): returned, or null when
     * the collection or the census was refused.
     */
    private ClassCensus forceGc() {
        long took = controller.forceFullGc();
        if (took < 0) {
            warn("the JVM refused the forced full collection at " + Instant.now() + ": that snapshot proves nothing new");
            return null;
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(took);
        if (pausesMillis.size() == LeakWatchInfo.MAX_PAUSES) {
            pausesMillis.removeFirst();
        }
        pausesMillis.addLast(millis);
        maxPauseMillis = Math.max(maxPauseMillis, millis);
        return takeCensus();
    }

    private ClassCensus takeCensus() {
        try {
            ClassCensus counted = census.take(startNanos, ClassCensus.DEFAULT_TOP);
            censuses.refused("");
            return counted;
        } catch (IllegalStateException e) {  // a HeapBudgetException too: refused before asking the JVM
            censuses.refused(e.getMessage());
            warn("no class census at " + Instant.now() + ": " + e.getMessage());
            return null;
        }
    }

    private void warn(String warning) {
        if (warnings.size() < MAX_WARNINGS) {
            warnings.add(warning);
        } else if (warnings.size() == MAX_WARNINGS) {
            warnings.add("further warnings left out");
        }
    }

    private void announceNewSuspects() {
        for (LeakReport.RankedSite site : view.report().sites()) {
            if (site.evidence().verdict() == Verdict.LEAK_SUSPECT && site.evidence().confidence() >= NOTIFY_CONFIDENCE
                    && announced.add(site.evidence().site())) {
                listeners.forEach(l -> l.leakSuspected(pid, site));
            }
        }
    }

    private LeakWatchInfo info() {
        return info(view.state());
    }

    /** The watch's figures, shown as in {@code shown} (the state about to be published). */
    private LeakWatchInfo info(State shown) {
        Markings markings = controller.markings();
        return new LeakWatchInfo(pid, startedAt, options.duration().toMillis(), options.every().toMillis(),
                Math.max(0, history.lastMillis()), options.intervalBytes(), shown == State.ENDED ? "ended" : "watching",
                endReason, history.snapshots(), history.gcs(), history.markings(), markings.lastCompletedAt(),
                limitation(markings.limitation()), options.gc(), List.copyOf(pausesMillis), maxPauseMillis, history.sitesLeftOut(),
                history.footprint(), warnings);
    }

    /** The clock's limitation, and when nothing was marked in a watch without --gc, why, and what would decide. */
    private String limitation(String clock) {
        if (options.gc() || history.snapshots() == 0 || history.markings() > 0) {
            return clock;
        }
        try {
            String cause = NoMarkingCause.explain(facts.get(), history.gcs(), pid, options.duration().toMillis(), options.every().toMillis());
            return clock.isEmpty() ? cause : clock + "; " + cause;
        } catch (RuntimeException e) {
            return clock;  // the words are a help; a JVM that will not say leaves them out
        }
    }

    State state() {
        return view.state();
    }

    /** The ranking as of the last snapshot; null when no watch has run since the last reset. */
    LeakReport report() {
        return view.report();
    }

    /** The state and the report it shows, of one moment. */
    View view() {
        return view;
    }

    /**
     * A watch's state with the report published with it: the report is null when idle, and its snapshot
     * count and time to OOM are of the state shown (a watch that ended shows its last report, not the one before).
     */
    record View(State state, LeakReport report) {
    }

    /** The watch's lock, for a test that must hold a timer task back. */
    Object lock() {
        return lock;
    }
}
