package io.heaptap.jmx;

import io.heaptap.profile.GcCost;
import io.heaptap.session.ProfileFigures;
import io.heaptap.session.SessionStatus;
import io.heaptap.session.StatusReport;

import java.util.ArrayList;
import java.util.List;

/**
 * The MXBean's rendering of one {@link StatusReport}: a single attribute asks a read for one figure,
 * the {@code Status} composite asks one read for all of them. Every figure is the report's; this class
 * only fits it to the attribute's type (whole bytes for JConsole, "" for none) and reads the profile's
 * figures through the report, so they are read once and only when a figure needs them.
 */
public final class StatusRead implements StatusView {
    private final StatusReport report;
    private final SessionStatus session;
    /** Whether a profile too big for the heap budget becomes {@link #getProfileError()} (composite) or throws (attribute). */
    private final boolean tolerant;

    StatusRead(StatusReport report, boolean tolerant) {
        this.report = report;
        this.session = report.session();
        this.tolerant = tolerant;
    }

    /** The report as the {@code Status} composite: a profile too big for the heap budget is said, not thrown. */
    public static StatusView composite(StatusReport report) {
        return new StatusRead(report, true);
    }

    /** The profile's figures or null; throws when they were too big, unless this read is tolerant. */
    private ProfileFigures profile() {
        return tolerant ? report.profile().orNull() : report.profile().required();
    }

    private static String orEmpty(Object o) {
        return o == null ? "" : o.toString();
    }

    @Override
    public String getState() {
        return report.state();
    }

    @Override
    public String getStartedBy() {
        return orEmpty(session.startedBy());
    }

    @Override
    public String getStartTime() {
        return orEmpty(session.startedAt());
    }

    @Override
    public long getTimeLeftMillis() {
        return session.timeLeftMillis();
    }

    @Override
    public long getSamplingIntervalBytes() {
        return session.intervalBytes();
    }

    @Override
    public String getSampling() {
        return session.describeSampling();
    }

    @Override
    public String getSamplingCost() {
        return session.describeSamplingCost();
    }

    @Override
    public String getContinuous() {
        return session.continuous();
    }

    @Override
    public int getStackDepth() {
        return report.stackDepth();
    }

    @Override
    public boolean isLiveTracking() {
        return report.liveTracking();
    }

    @Override
    public int getLiveBudget() {
        return report.liveBudget();
    }

    @Override
    public long getSamples() {
        return session.samples();
    }

    @Override
    public long getSamplesDropped() {
        ProfileFigures p = profile();
        return p == null ? 0 : p.samplesDropped();
    }

    @Override
    public long getTrackedObjects() {
        ProfileFigures p = profile();
        return p == null ? 0 : p.liveInfo().tracked();
    }

    @Override
    public double getKeepProbability() {
        ProfileFigures p = profile();
        return p == null ? 1 : p.liveInfo().keepProbability();
    }

    @Override
    public long getEstimatedAllocatedBytes() {
        ProfileFigures p = profile();
        return p == null ? 0 : Math.round(p.allocated().estimatedBytes());
    }

    @Override
    public long getEstimatedLiveBytes() {
        ProfileFigures p = profile();
        return p == null ? 0 : Math.round(p.live().proven().bytes().value());
    }

    @Override
    public long getEstimatedLiveBytesLow() {
        ProfileFigures p = profile();
        return p == null ? 0 : Math.round(p.live().proven().bytes().lower());
    }

    @Override
    public long getEstimatedLiveBytesHigh() {
        ProfileFigures p = profile();
        return p == null ? 0 : Math.round(p.live().proven().bytes().upper());
    }

    @Override
    public long getUnexaminedLiveBytes() {
        ProfileFigures p = profile();
        return p == null ? 0 : Math.round(p.unexaminedBytes());
    }

    @Override
    public long getMarkings() {
        ProfileFigures p = profile();
        return p == null ? 0 : p.liveInfo().markings().inWindow();
    }

    @Override
    public String getLastMarking() {
        ProfileFigures p = profile();
        return p == null ? "" : orEmpty(p.liveInfo().markings().lastCompletedAt());
    }

    @Override
    public List<String> getLiveReport() {
        ProfileFigures p = profile();
        return p == null ? List.of() : p.liveSummary();
    }

    @Override
    public String getGcCollector() {
        GcCost gc = session.gc();
        return gc == null ? "" : gc.collector();
    }

    @Override
    public long getGcCollections() {
        GcCost gc = session.gc();
        return gc == null ? 0 : gc.collections();
    }

    @Override
    public long getGcPauseMillis() {
        GcCost gc = session.gc();
        return gc == null ? 0 : gc.pauseMillis();
    }

    @Override
    public double getGcPauseShare() {
        GcCost gc = session.gc();
        return gc == null ? 0 : gc.pauseShare();
    }

    @Override
    public double getGcCpuShare() {
        GcCost gc = session.gc();
        return gc == null ? -1 : gc.cpu().share();
    }

    @Override
    public long getAllocationRateBytesPerSecond() {
        profile();  // an attribute throws when the profile is too big, as every figure of the profile does
        return Math.round(report.allocationRate());
    }

    /** The header, the warning when there is one, then the report's lines. */
    @Override
    public List<String> getGcReport() {
        List<String> lines = new ArrayList<>();
        report.gcHeader().ifPresent(lines::add);
        report.gcAlarm().ifPresent(lines::add);
        lines.addAll(report.gcLines());
        return lines;
    }

    @Override
    public long getHeapBudgetBytes() {
        return report.heapBudget().bytes();
    }

    @Override
    public long getNativeMemoryBytes() {
        return session.nativeMemory();
    }

    @Override
    public long getWeakRefs() {
        return report.weakRefs();
    }

    @Override
    public String getNativeAgentError() {
        return orEmpty(session.nativeError());
    }

    @Override
    public String getAgentVersion() {
        return report.agentVersion();
    }

    @Override
    public String getDumpDirectory() {
        return report.dumpDirectory();
    }

    @Override
    public String getHttpUrl() {
        return report.httpUrl();
    }

    @Override
    public String getHttpTokenFile() {
        return report.httpTokenFile();
    }

    @Override
    public String getLeakWatchState() {
        return report.leakWatchState();
    }

    @Override
    public int getLeakWatchSnapshots() {
        return report.leakWatchSnapshots();
    }

    @Override
    public String getTimeToOom() {
        return report.timeToOom();
    }

    @Override
    public String getProfileError() {
        return report.profile().error();
    }
}
