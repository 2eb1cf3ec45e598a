package io.heaptap.jmx;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveStats;
import io.heaptap.profile.TopSites;
import io.heaptap.profile.census.CensusFormat;
import io.heaptap.profile.format.ProfileFormat;
import io.heaptap.profile.leak.LeakEvidence;
import io.heaptap.profile.leak.LeakFormat;
import io.heaptap.profile.leak.LeakReport;
import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.session.Controller;
import io.heaptap.session.HttpServing;
import io.heaptap.wire.options.LeakWatchOptions;
import io.heaptap.wire.options.PathOptions;
import io.heaptap.session.StatusReport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The MXBean: a thin adapter from JMX to the {@link Controller}. Arguments are checked here so
 * that a bad or missing one gives a clear {@link IllegalArgumentException} and changes nothing.
 */
final class HeaptapBean implements HeaptapMXBean {
    static final int MAX_ROWS = 1000;
    /** Rows of a table when JConsole's 0 is given. */
    static final int DEFAULT_ROWS = 20;

    private final Controller controller;
    private final String version;
    private final HttpServing http;

    HeaptapBean(Controller controller, String version, HttpServing http) {
        this.controller = controller;
        this.version = version;
        this.http = http;
    }

    @Override
    public StatusView getStatus() {
        return StatusRead.composite(report());
    }

    /** One status for one attribute; it throws, as before, when the figure needs a profile too big for the heap budget. */
    private StatusRead read() {
        return new StatusRead(report(), false);
    }

    private StatusReport report() {
        return controller.statusReport(new StatusReport.Door(version, http));
    }

    @Override
    public String getState() {
        return read().getState();
    }

    @Override
    public String getStartedBy() {
        return read().getStartedBy();
    }

    @Override
    public String getStartTime() {
        return read().getStartTime();
    }

    @Override
    public long getTimeLeftMillis() {
        return read().getTimeLeftMillis();
    }

    @Override
    public long getSamplingIntervalBytes() {
        return read().getSamplingIntervalBytes();
    }

    @Override
    public String getSampling() {
        return read().getSampling();
    }

    @Override
    public String getSamplingCost() {
        return read().getSamplingCost();
    }

    @Override
    public int getStackDepth() {
        return read().getStackDepth();
    }

    @Override
    public boolean isLiveTracking() {
        return read().isLiveTracking();
    }

    @Override
    public int getLiveBudget() {
        return read().getLiveBudget();
    }

    @Override
    public long getSamples() {
        return read().getSamples();
    }

    @Override
    public long getSamplesDropped() {
        return read().getSamplesDropped();
    }

    @Override
    public long getTrackedObjects() {
        return read().getTrackedObjects();
    }

    @Override
    public double getKeepProbability() {
        return read().getKeepProbability();
    }

    @Override
    public long getEstimatedAllocatedBytes() {
        return read().getEstimatedAllocatedBytes();
    }

    @Override
    public long getEstimatedLiveBytes() {
        return read().getEstimatedLiveBytes();
    }

    @Override
    public long getEstimatedLiveBytesLow() {
        return read().getEstimatedLiveBytesLow();
    }

    @Override
    public long getEstimatedLiveBytesHigh() {
        return read().getEstimatedLiveBytesHigh();
    }

    @Override
    public long getUnexaminedLiveBytes() {
        return read().getUnexaminedLiveBytes();
    }

    @Override
    public long getMarkings() {
        return read().getMarkings();
    }

    @Override
    public String getLastMarking() {
        return read().getLastMarking();
    }

    @Override
    public List<String> getLiveReport() {
        return read().getLiveReport();
    }

    @Override
    public String getGcCollector() {
        return read().getGcCollector();
    }

    @Override
    public long getGcCollections() {
        return read().getGcCollections();
    }

    @Override
    public long getGcPauseMillis() {
        return read().getGcPauseMillis();
    }

    @Override
    public double getGcPauseShare() {
        return read().getGcPauseShare();
    }

    @Override
    public double getGcCpuShare() {
        return read().getGcCpuShare();
    }

    @Override
    public long getAllocationRateBytesPerSecond() {
        return read().getAllocationRateBytesPerSecond();
    }

    @Override
    public List<String> getGcReport() {
        return read().getGcReport();
    }

    @Override
    public long getHeapBudgetBytes() {
        return read().getHeapBudgetBytes();
    }

    @Override
    public long getNativeMemoryBytes() {
        return read().getNativeMemoryBytes();
    }

    @Override
    public long getWeakRefs() {
        return read().getWeakRefs();
    }

    @Override
    public String getNativeAgentError() {
        return read().getNativeAgentError();
    }

    @Override
    public String getAgentVersion() {
        return read().getAgentVersion();
    }

    @Override
    public String getDumpDirectory() {
        return read().getDumpDirectory();
    }

    @Override
    public String getHttpUrl() {
        return read().getHttpUrl();
    }

    @Override
    public String getHttpTokenFile() {
        return read().getHttpTokenFile();
    }

    @Override
    public String startServing(int port) {
        return http.start(StartArguments.serve(null, port, null, null)).url();
    }

    @Override
    public String startServing(String bind, int port, String token, String allowOrigin) {
        return http.start(StartArguments.serve(bind, port, token, allowOrigin)).url();
    }

    @Override
    public boolean stopServing() {
        return http.stop();
    }

    @Override
    public String getContinuous() {
        return read().getContinuous();
    }

    @Override
    public String startContinuous(String service) {
        return controller.startContinuous(StartArguments.text(service), "jmx").describe();
    }

    @Override
    public String startOtlpPush(String url, String every) {
        return controller.startOtlpPush(StartArguments.otlpPush(url, every)).describe();
    }

    @Override
    public void stopContinuous() {
        controller.stopContinuous();
    }

    @Override
    public void start() {
        start(null, null, null);
    }

    @Override
    public void start(String duration, String interval, String rate) {
        start(duration, interval, rate, 0, 0, null, 0, null, null);
    }

    @Override
    public void start(String duration, String interval, String rate, int depth, int maxStacks, String live, int liveBudget,
                      String liveBytes, String client) {
        CaptureOptions options = StartArguments.options(duration, interval, rate, depth, maxStacks, live, liveBudget, liveBytes);
        String who = StartArguments.text(client);
        controller.start(options, who == null ? "jmx" : who);
    }

    @Override
    public void stop() {
        controller.stop();
    }

    @Override
    public void reset() {
        controller.reset();
    }

    @Override
    public String dump(String format) {
        ProfileFormat f = format(format, ProfileFormat.PPROF);
        try {
            // A name of its own: two dumps within the same second both stay.
            return controller.dumpDirectory().writeNew(f.extension(), controller.dump(f, LiveFilter.NONE, false)).toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dump: " + e.getMessage(), e);
        }
    }

    @Override
    public String dump(String format, String fileName) {
        ProfileFormat f = format(format, ProfileFormat.PPROF);
        try {
            return controller.dumpToFile(f, fileName, LiveFilter.NONE, false).toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the dump: " + e.getMessage(), e);
        }
    }

    @Override
    public String dumpText(String format, String minAge, long minGcs, boolean gc) {
        ProfileFormat f = format(format, ProfileFormat.TEXT);
        if (f == ProfileFormat.PPROF || f == ProfileFormat.OTLP) {
            throw new IllegalArgumentException(f.name().toLowerCase(java.util.Locale.ROOT) + " is a binary format: use dumpBytes");
        }
        return new String(controller.dump(f, CaptureOptions.parseFilter(StartArguments.text(minAge), minGcs), gc),
                StandardCharsets.UTF_8);
    }

    @Override
    public byte[] dumpBytes(String format, String minAge, long minGcs, boolean gc) {
        ProfileFormat f = format(format, ProfileFormat.PPROF);
        return controller.dump(f, CaptureOptions.parseFilter(StartArguments.text(minAge), minGcs), gc);
    }

    private static ProfileFormat format(String text, ProfileFormat otherwise) {
        String t = StartArguments.text(text);
        return t == null ? otherwise : ProfileFormat.parse(t);
    }

    @Override
    public List<AllocationRow> topAllocations(int asked) {
        int n = rows(asked);
        return controller.peekProfile(p -> allocationRows(p, n));
    }

    private static List<AllocationRow> allocationRows(AllocationProfile p, int n) {
        List<AllocationRow> rows = new ArrayList<>();
        if (p == null) {
            return rows;
        }
        for (TopSites.Row row : TopSites.byAllocatedBytes(p, n)) {
            AllocationSite s = row.site();
            rows.add(new AllocationRow(row.rank(), s.type(), s.allocatedAt(), s.estimatedBytes(), row.percent(),
                    s.estimatedObjects(), s.samples()));
        }
        return rows;
    }

    @Override
    public List<LiveRow> topLive(int asked) {
        int n = rows(asked);
        return controller.peekProfile(p -> liveRows(p, n));
    }

    private static List<LiveRow> liveRows(AllocationProfile p, int n) {
        List<LiveRow> rows = new ArrayList<>();
        if (p == null) {
            return rows;
        }
        for (TopSites.Row row : TopSites.byLiveBytes(p, n)) {
            AllocationSite s = row.site();
            LiveStats l = s.live();
            rows.add(new LiveRow(row.rank(), s.type(), s.allocatedAt(), l.proven().bytes().value(), l.proven().bytes().lower(),
                    l.proven().bytes().upper(), row.unexaminedBytes(),
                    l.proven().objects().value(), l.tracked(),
                    l.medianAge().toMillis(), l.maxAge().toMillis(), l.medianGcs()));
        }
        return rows;
    }

    @Override
    public List<String> referencePaths(String site, int maxPaths, int maxDepth, int maxObjects, String timeLimit) {
        // JConsole's 0 in a number field is the default, as in start.
        PathOptions options = StartArguments.paths(maxPaths, maxDepth, maxObjects, timeLimit);
        return controller.referencePaths(site, options).lines();
    }

    @Override
    public String getLeakWatchState() {
        return read().getLeakWatchState();
    }

    @Override
    public int getLeakWatchSnapshots() {
        return read().getLeakWatchSnapshots();
    }

    @Override
    public String getTimeToOom() {
        return read().getTimeToOom();
    }

    @Override
    public void startLeakWatch(String duration, String every) {
        startLeakWatch(duration, every, null, false, "jmx");
    }

    @Override
    public void startLeakWatch(String duration, String every, String interval, boolean gc, String client) {
        LeakWatchOptions options = StartArguments.leakWatch(duration, every, interval, gc);
        controller.startLeakWatch(options, client == null || client.isBlank() ? "jmx" : client);
    }

    @Override
    public void stopLeakWatch() {
        controller.stopLeakWatch();
    }

    @Override
    public List<LeakRow> leakRanking(int asked) {
        int n = rows(asked);
        List<LeakRow> rows = new ArrayList<>();
        LeakReport r = controller.leakReport();
        if (r != null) {
            for (LeakReport.RankedSite s : r.top(n)) {
                LeakEvidence e = s.evidence();
                rows.add(new LeakRow(s.rank(), e.verdict().label(), e.confidence(), e.site().type(), e.site().allocatedAt(),
                        e.liveBytes(), e.liveBytesLow(), e.liveBytesHigh(), e.unexaminedBytes(), e.markings(), e.bytesPerMinute(), e.growth(), e.maxAgeMillis(), e.medianAgeMillis(), e.medianGcs(),
                        e.tracked(), e.points(), e.reason()));
            }
        }
        return rows;
    }

    @Override
    public String leakReport(String format) {
        String t = StartArguments.text(format);
        LeakFormat f = t == null ? LeakFormat.TEXT : LeakFormat.parse(t);
        LeakReport r = controller.leakReport();
        if (r == null) {
            throw new IllegalStateException("no leak watch has run since the agent was loaded or reset: start one with startLeakWatch");
        }
        return new String(f.render(r), StandardCharsets.UTF_8);
    }

    @Override
    public String classCensus(int n, String format) {
        CensusFormat f = CensusFormat.parse(StartArguments.text(format));
        return f.render(controller.classCensus(n == 0 ? CensusFormat.DEFAULT_CLASSES : n), ProcessHandle.current().pid());
    }

    /** Rows asked for: 0 (JConsole's untouched field) is the default, else 1 to {@value #MAX_ROWS}. */
    private static int rows(int n) {
        if (n == 0) {
            return DEFAULT_ROWS;
        }
        if (n < 1 || n > MAX_ROWS) {
            throw new IllegalArgumentException("n must be between 1 and " + MAX_ROWS + ", not " + n);
        }
        return n;
    }
}
