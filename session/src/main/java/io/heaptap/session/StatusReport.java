package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.profile.GcCost;
import io.heaptap.profile.format.GcText;
import io.heaptap.profile.leak.LeakReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * heaptap's whole status at one moment, read once by the session: every door renders this record
 * (the MXBean's attributes and {@code Status} composite, which the CLI's {@code status} prints, and
 * {@code /api/status}) and none computes a figure of its own, so a figure cannot differ between doors.
 * The profile's figures are the one costly part: {@link Profile} reads them at most once, and only
 * when a figure needs them.
 *
 * @param session            the capture, sampling, GC cost and native agent at this moment
 * @param profile            the profile's figures, read on first need
 * @param pid                this JVM
 * @param agentVersion       heaptap's version, as the door was given it
 * @param dumpDirectory      where file dumps go
 * @param httpUrl            where the HTTP endpoint serves; "" when it does not
 * @param httpTokenFile      the file holding the token heaptap made; "" when none
 * @param heapBudget         heaptap's share of the heap and what requests hold of it now
 * @param weakRefs           JNI weak references the agent holds
 * @param leakWatchState     idle, watching or ended
 * @param leakWatchSnapshots snapshots of the last leak watch; 0 without one
 * @param timeToOom          the last leak watch's projection in one line; "" without a census
 * @param otlpPush           the OTLP push's figures; null when none runs
 */
public record StatusReport(SessionStatus session, Profile profile, long pid, String agentVersion, String dumpDirectory,
                           String httpUrl, String httpTokenFile, Budget heapBudget, long weakRefs, String leakWatchState,
                           int leakWatchSnapshots, String timeToOom, OtlpPushStatus otlpPush) {

    /** What the session is told by the door that asks: the version it was given, and the HTTP endpoint (null: none). */
    public record Door(String agentVersion, HttpServing http) {
    }

    /** heaptap's heap budget as of the read (its own figures move with every request). */
    public record Budget(long bytes, long inUseBytes, long keptBytes, long peakBytes, int deltaScrapesWaiting) {
    }

    /** Reads the status of {@code controller} for a door; the profile waits for the first figure that needs it. */
    static StatusReport read(Controller controller, Door door) {
        // First, and in one read: the state with the report it was published with, so a watch ending meanwhile
        // cannot show "ended" beside the snapshot count and time to OOM of the report before its last.
        LeakWatch.View watch = controller.leakWatchView();
        LeakReport leaks = watch.report();
        HeapBudget b = controller.heapBudget();
        return new StatusReport(controller.status(), new Profile(controller::profileFigures), ProcessHandle.current().pid(),
                door.agentVersion(), controller.dumpDirectory().root().toString(),
                door.http() == null ? "" : door.http().url().orElse(""), door.http() == null ? "" : door.http().tokenFile().orElse(""),
                new Budget(b.bytes(), b.inUseBytes(), b.keptBytes(), b.peakBytes(), controller.deltaBaselinesOpen()),
                controller.weakRefs(), watch.state().label(), leaks == null ? 0 : leaks.watch().snapshots(),
                leaks == null ? "" : leaks.timeToOom(), controller.otlpPush());
    }

    /** idle, recording or stopped. */
    public String state() {
        return session.state().name().toLowerCase(Locale.ROOT);
    }

    public boolean liveTracking() {
        CaptureOptions o = session.options();
        return o != null && o.live();
    }

    /** The live table's budget while live tracking is on; 0 otherwise. */
    public int liveBudget() {
        return liveTracking() ? session.options().liveBudget() : 0;
    }

    /** 0 when idle. */
    public int stackDepth() {
        CaptureOptions o = session.options();
        return o == null ? 0 : o.stackDepth();
    }

    /** The GC report's first line (collector and heap); empty when idle. */
    public Optional<String> gcHeader() {
        GcCost gc = session.gc();
        return gc == null ? Optional.empty() : Optional.of(GcText.header(gc));
    }

    /** The GC's warning, when it has one. */
    public Optional<String> gcAlarm() {
        GcCost gc = session.gc();
        return gc == null ? Optional.empty() : gc.alarm();
    }

    /**
     * The GC report's lines after its header; the allocation rate last, only when the profile's figures are
     * known (the GC's cost needs no profile, so a profile too big for the heap budget leaves the rest). Empty when idle.
     */
    public List<String> gcLines() {
        GcCost gc = session.gc();
        if (gc == null) {
            return List.of();
        }
        ProfileFigures p = profile.orNull();
        List<String> lines = new ArrayList<>(GcText.lines(gc, p == null ? 0 : p.allocationRate()));
        if (p == null) {
            lines.remove(lines.size() - 1);
        }
        return List.copyOf(lines);
    }

    /** The estimated allocation rate in bytes a second; 0 when the profile's figures are not known. */
    public double allocationRate() {
        ProfileFigures p = profile.orNull();
        return p == null ? 0 : p.allocationRate();
    }

    /**
     * The profile's figures, read at most once, on first need: null when nothing samples, and an error
     * (said by {@link #error}, thrown by {@link #required}) when they would take more of the target's heap
     * than heaptap's budget. Safe to share between threads.
     */
    public static final class Profile {
        private final Supplier<ProfileFigures> source;
        private boolean read;
        private ProfileFigures figures;
        private HeapBudgetException tooBig;

        /** @param source the figures, or null when nothing samples; may throw {@link HeapBudgetException} */
        public Profile(Supplier<ProfileFigures> source) {
            this.source = source;
        }

        /** Figures known already: a fixed status (tests, a client's rebuild). */
        public static Profile of(ProfileFigures figures) {
            return new Profile(() -> figures);
        }

        private synchronized void read() {
            if (!read) {
                read = true;
                try {
                    figures = source.get();
                } catch (HeapBudgetException e) {
                    tooBig = e;
                }
            }
        }

        /** The figures, or null when nothing samples or they are too big. */
        public synchronized ProfileFigures orNull() {
            read();
            return figures;
        }

        /**
         * The figures, or null when nothing samples.
         *
         * @throws HeapBudgetException they would not fit heaptap's heap budget
         */
        public synchronized ProfileFigures required() {
            read();
            if (tooBig != null) {
                throw tooBig;
            }
            return figures;
        }

        /** Why the figures are missing although something samples; "" when they are not. */
        public synchronized String error() {
            read();
            return tooBig == null ? "" : tooBig.getMessage();
        }

        /** Whether the figures have been read (they are read only when a figure needs them). */
        public synchronized boolean wasRead() {
            return read;
        }
    }
}
