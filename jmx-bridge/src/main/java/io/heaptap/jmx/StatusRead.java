package io.heaptap.jmx;

import io.heaptap.profile.GcCost;
import io.heaptap.profile.format.GcText;
import io.heaptap.session.CaptureOptions;
import io.heaptap.session.HeapBudgetException;
import io.heaptap.session.ProfileFigures;
import io.heaptap.session.SessionStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * One read of the session for the MXBean: one {@link SessionStatus} and at most one set of
 * {@link ProfileFigures} (computed in the session, as for every door), from
 * which every status figure is computed here and nowhere else. A single attribute makes a read and
 * asks it for one figure; the {@code Status} composite asks one read for all of them. The profile
 * is fetched only when a figure needs it (most attributes do not), and at most once.
 */
final class StatusRead implements StatusView {
    /** What the status shows besides the capture: the agent and its doors, read once for the composite. */
    record Agent(String version, long heapBudgetBytes, long weakRefs, String dumpDirectory, String httpUrl, String httpTokenFile,
                 String leakWatchState, int leakWatchSnapshots, String timeToOom) {
    }

    private final SessionStatus session;
    private final Supplier<ProfileFigures> profileSource;
    private final Supplier<Agent> agentSource;
    /** Whether a profile too big for the heap budget becomes {@link #getProfileError()} (composite) or throws (attribute). */
    private final boolean tolerant;

    private boolean profileRead;
    private ProfileFigures profile;
    private HeapBudgetException profileTooBig;
    private Agent agent;

    /**
     * @param profileSource the profile's figures: null when nothing samples; may throw {@link HeapBudgetException}
     * @param agentSource   the facts about the agent, asked for only when a figure needs them
     */
    StatusRead(SessionStatus session, Supplier<ProfileFigures> profileSource, Supplier<Agent> agentSource, boolean tolerant) {
        this.session = session;
        this.profileSource = profileSource;
        this.agentSource = agentSource;
        this.tolerant = tolerant;
    }

    /** The profile or null; throws when it was too big, unless this read is tolerant. */
    private ProfileFigures profile() {
        ProfileFigures p = profileOrNull();
        if (profileTooBig != null && !tolerant) {
            throw profileTooBig;
        }
        return p;
    }

    /** The profile, or null when idle or too big for the heap budget. */
    private ProfileFigures profileOrNull() {
        if (!profileRead) {
            profileRead = true;
            try {
                profile = profileSource.get();
            } catch (HeapBudgetException tooBig) {
                profileTooBig = tooBig;
            }
        }
        return profile;
    }

    private Agent agent() {
        if (agent == null) {
            agent = agentSource.get();
        }
        return agent;
    }

    @Override
    public String getState() {
        return session.state().name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String getStartedBy() {
        return session.startedBy() == null ? "" : session.startedBy();
    }

    @Override
    public String getStartTime() {
        return session.startedAt() == null ? "" : session.startedAt().toString();
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
        CaptureOptions o = session.options();
        return o == null ? 0 : o.stackDepth();
    }

    @Override
    public boolean isLiveTracking() {
        CaptureOptions o = session.options();
        return o != null && o.live();
    }

    @Override
    public int getLiveBudget() {
        CaptureOptions o = session.options();
        return o == null || !o.live() ? 0 : o.liveBudget();
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
        return p == null || p.liveInfo().markings().lastCompletedAt() == null ? "" : p.liveInfo().markings().lastCompletedAt().toString();
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
        ProfileFigures p = profile();
        return p == null ? 0 : Math.round(p.allocationRate());
    }

    @Override
    public List<String> getGcReport() {
        GcCost gc = session.gc();
        List<String> lines = new ArrayList<>();
        if (gc != null) {
            lines.add(GcText.header(gc));
            gc.alarm().ifPresent(lines::add);
            // The GC's cost does not need the profile; only its last line, the allocation rate, does.
            ProfileFigures p = profileOrNull();
            lines.addAll(GcText.lines(gc, p == null ? 0 : p.allocationRate()));
            if (p == null) {
                lines.remove(lines.size() - 1);
            }
        }
        return lines;
    }

    @Override
    public long getHeapBudgetBytes() {
        return agent().heapBudgetBytes();
    }

    @Override
    public long getNativeMemoryBytes() {
        return session.nativeMemory();
    }

    @Override
    public long getWeakRefs() {
        return agent().weakRefs();
    }

    @Override
    public String getNativeAgentError() {
        return session.nativeError() == null ? "" : session.nativeError();
    }

    @Override
    public String getAgentVersion() {
        return agent().version();
    }

    @Override
    public String getDumpDirectory() {
        return agent().dumpDirectory();
    }

    @Override
    public String getHttpUrl() {
        return agent().httpUrl();
    }

    @Override
    public String getHttpTokenFile() {
        return agent().httpTokenFile();
    }

    @Override
    public String getLeakWatchState() {
        return agent().leakWatchState();
    }

    @Override
    public int getLeakWatchSnapshots() {
        return agent().leakWatchSnapshots();
    }

    @Override
    public String getTimeToOom() {
        return agent().timeToOom();
    }

    @Override
    public String getProfileError() {
        profileOrNull();
        return profileTooBig == null ? "" : profileTooBig.getMessage();
    }
}
