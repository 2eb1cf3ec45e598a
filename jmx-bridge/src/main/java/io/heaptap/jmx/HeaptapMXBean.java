package io.heaptap.jmx;

import io.heaptap.session.CaptureOptions;
import io.heaptap.session.PathOptions;

import java.util.List;

/**
 * heaptap's control surface in JConsole, VisualVM, Jolokia and the CLI, registered as
 * {@value MBeanRegistration#OBJECT_NAME}. Only open types, so every generic JMX client renders it.
 * Every figure's description says whether it is a count or an estimate.
 */
@Description("heaptap: time-boxed, Poisson-sampled allocation profiling and live-object tracking of this JVM")
public interface HeaptapMXBean {

    @Description("The whole status read at once, from one snapshot of the session, so its figures agree: one item per status"
            + " attribute below, under the attribute's name (State is state), plus profileError (why the profile's figures are"
            + " 0 when it was too big to summarise within the heap budget; empty otherwise)")
    StatusView getStatus();

    @Description("idle (nothing recorded), recording, or stopped (the last capture can still be dumped)")
    String getState();

    @Description("Who started the current or last capture; empty when idle")
    String getStartedBy();

    @Description("When the current or last capture started (ISO-8601); empty when idle")
    String getStartTime();

    @Description("Milliseconds left in the time box; 0 unless recording")
    long getTimeLeftMillis();

    @Description("Mean bytes allocated between samples, per thread, in force now (the last one when stopped); it moves"
            + " with the allocation rate under a sample-rate target")
    long getSamplingIntervalBytes();

    @Description("The sampling interval in words: fixed, or the one now, its range over the capture and the sample-rate target")
    String getSampling();

    @Description("What the current or last capture's sampling cost the application so far: the time heaptap's sample"
            + " callback took against the process's CPU, per sample, and the share the default sampling keeps it under")
    String getSamplingCost();

    @Description("Stack frames kept per sample in the current or last capture")
    int getStackDepth();

    @Description("Whether the current or last capture tracks sampled objects (live set, age, GCs survived)")
    boolean isLiveTracking();

    @Description("Maximum tracked objects of the current or last capture")
    int getLiveBudget();

    @Description("Samples recorded by the current or last capture (a count)")
    long getSamples();

    @Description("Samples lost or kept without their stack because a bounded table was full (a count)")
    long getSamplesDropped();

    @Description("Sampled objects tracked and alive now (a count)")
    long getTrackedObjects();

    @Description("Probability a new sample enters the live table (1 = never thinned)")
    double getKeepProbability();

    @Description("Bytes allocated during the current or last capture (an estimate)")
    double getEstimatedAllocatedBytes();

    @Description("Bytes proven live now: tracked objects still referenced after a whole-heap marking that began after their"
            + " allocation (an estimate)")
    double getEstimatedLiveBytes();

    @Description("Lower end of the 95% interval of EstimatedLiveBytes")
    double getEstimatedLiveBytesLow();

    @Description("Upper end of the 95% interval of EstimatedLiveBytes")
    double getEstimatedLiveBytesHigh();

    @Description("Bytes of live objects no whole-heap marking has examined yet (an estimate; may be garbage)")
    double getUnexaminedLiveBytes();

    @Description("Whole-heap markings (full collections, concurrent marking cycles) during the current or last capture (a count)")
    long getMarkings();

    @Description("When the last whole-heap marking completed (ISO-8601); empty if none since tracking began")
    String getLastMarking();

    @Description("The live set in words: proven live and not yet examined with their 95% intervals, the markings behind the"
            + " proof, and any figure the heap cannot hold")
    List<String> getLiveReport();

    @Description("The garbage collector (G1, Parallel, ZGC, ...); empty when idle")
    String getGcCollector();

    @Description("Collections during the current or last capture (a count, from the GC MXBeans)")
    long getGcCollections();

    @Description("Milliseconds the application was paused for GC during the current or last capture")
    long getGcPauseMillis();

    @Description("Share of the capture's wall-clock time spent in GC pauses, 0-1")
    double getGcPauseShare();

    @Description("Share of the process's CPU time used by GC threads during the capture, 0-1; -1 when unavailable")
    double getGcCpuShare();

    @Description("Bytes allocated per second during the current or last capture (an estimate, from the samples)")
    double getAllocationRateBytesPerSecond();

    @Description("The GC cost of the current or last capture in words: collector and heap, collections, CPU, and a warning line when GC is expensive")
    List<String> getGcReport();

    @Description("Bytes of this JVM's heap heaptap may use at once for a request (a sixteenth of the heap, 2 to 64 MiB)")
    long getHeapBudgetBytes();

    @Description("Bytes of native memory held by the agent's tables (the agent's own count)")
    long getNativeMemoryBytes();

    @Description("JNI weak references held for live tracking; 0 after reset (a count)")
    long getWeakRefs();

    @Description("Why the native agent is unavailable; empty when it works")
    String getNativeAgentError();

    @Description("heaptap's version")
    String getAgentVersion();

    @Description("The folder that dump writes files into (only there)")
    String getDumpDirectory();

    @Description("The URL of heaptap's HTTP endpoint when it serves; empty otherwise")
    String getHttpUrl();

    @Description("The owner-only file holding the token every HTTP request must carry (Authorization: Bearer <token>),"
            + " when heaptap made the token; empty when not serving or when the token was given")
    String getHttpTokenFile();

    @Description("Starts a capture with the default stack depth and budgets")
    void start(@Description(name = "duration", value = "Time box, e.g. 30s, 2m (max 24h)") String duration,
               @Description(name = "interval", value = "Mean bytes between samples, e.g. 512k (fixed, min 4k),"
                       + " or samples per second to keep near, e.g. 5000/s (the interval follows the allocation rate)") String interval,
               @Description(name = "live", value = "Track sampled objects (live set, age, GCs survived)") boolean live);

    @Description("Starts a capture with every option")
    void start(@Description(name = "duration", value = "Time box, e.g. 30s, 2m (max 24h)") String duration,
               @Description(name = "interval", value = "Mean bytes between samples, e.g. 512k (fixed, min 4k),"
                       + " or samples per second to keep near, e.g. 5000/s (the interval follows the allocation rate)") String interval,
               @Description(name = "stackDepth", value = "Stack frames kept per sample, 1-" + CaptureOptions.MAX_DEPTH) int stackDepth,
               @Description(name = "maxStacks", value = "Distinct stacks kept, 1-1048576") int maxStacks,
               @Description(name = "live", value = "Track sampled objects") boolean live,
               @Description(name = "liveBudget", value = "Maximum tracked objects, 1-1048576") int liveBudget,
               @Description(name = "client", value = "Who starts it (shown to anyone who finds it running)") String client);

    @Description("Ends the capture now; harmless when nothing is recording. Tracked objects stay tracked until reset")
    void stop();

    @Description("Forgets everything recorded and deletes every weak reference; harmless when idle")
    void reset();

    @Description("Writes a dump of the current or last capture into the dump directory and returns its path")
    String dump(@Description(name = "format", value = "text, pprof, collapsed, json or html") String format);

    @Description("Writes a dump under a plain file name into the dump directory and returns its path")
    String dump(@Description(name = "format", value = "text, pprof, collapsed, json or html") String format,
                @Description(name = "fileName", value = "A plain file name, e.g. profile.pb.gz (no folders)") String fileName);

    @Description("The dump as bytes, encoded in this JVM within heaptap's heap budget (refused if too big: the CLI"
            + " fetches any size through openRawDump); the live view filtered by age and GCs survived")
    byte[] dumpBytes(@Description(name = "format", value = "text, pprof, collapsed, json or html") String format,
                     @Description(name = "minAge", value = "Only live objects at least this old, e.g. 10s; empty for all") String minAge,
                     @Description(name = "minGcs", value = "Only live objects that survived this many GCs") long minGcs,
                     @Description(name = "gc", value = "Force a full GC first (pauses the application)") boolean gc);

    @Description("For heaptap's CLI: opens the current or last capture undecoded (the CLI decodes and encodes it itself),"
            + " held in native memory until closeRawDump or a minute without reads; returns its id")
    String openRawDump(@Description(name = "gc", value = "Force a full GC first (pauses the application)") boolean gc);

    @Description("For heaptap's CLI: up to maxBytes (at most 256 KiB) of an open raw dump from offset; empty at its end")
    byte[] readRawDump(@Description(name = "id", value = "What openRawDump returned") String id,
                       @Description(name = "offset", value = "Bytes already read") long offset,
                       @Description(name = "maxBytes", value = "At most this many, up to 262144") int maxBytes);

    @Description("For heaptap's CLI: frees an open raw dump; harmless if it is gone already")
    void closeRawDump(@Description(name = "id", value = "What openRawDump returned") String id);

    @Description("The top allocation sites of the current or last capture")
    List<AllocationRow> topAllocations(@Description(name = "n", value = "How many rows, 1-1000") int n);

    @Description("Starts heaptap's HTTP endpoint on 127.0.0.1 (REST API, web page, /debug/pprof, /jolokia) and returns its URL;"
            + " every request needs the token in HttpTokenFile. When it already serves, returns the running server's URL")
    String startServing(@Description(name = "port", value = "TCP port, 0 for any free one") int port);

    @Description("Starts heaptap's HTTP endpoint with every option and returns its URL; when it already serves, returns the"
            + " running server's URL")
    String startServing(@Description(name = "bind", value = "IP address to bind, e.g. 127.0.0.1") String bind,
                        @Description(name = "port", value = "TCP port, 0 for any free one") int port,
                        @Description(name = "token", value = "Token every request must carry (16+ characters); empty: heaptap makes one, see HttpTokenFile") String token,
                        @Description(name = "allowOrigin", value = "The one origin CORS allows, e.g. https://grafana.example; empty: CORS off") String allowOrigin);

    @Description("Stops heaptap's HTTP endpoint; returns whether it was serving")
    boolean stopServing();

    @Description("Continuous sampling (for Pyroscope/Alloy and Parca scraping /debug/pprof): since when, the service, the"
            + " interval now; empty when off")
    String getContinuous();

    @Description("Starts continuous sampling until stopContinuous: /debug/pprof/allocs becomes cumulative since now and is"
            + " never reset; captures meanwhile are windows over it. Returns what getContinuous then says")
    String startContinuous(@Description(name = "service", value = "The service name scrapes carry; empty: the main class or jar") String service);

    @Description("Stops continuous sampling (and a capture running over it); harmless when off")
    void stopContinuous();

    @Description("How is it held? Reference chains from a GC root or static field to the oldest tracked objects of a site,"
            + " one line each. WARNING: the heap walk pauses the application (at most timeLimit)")
    List<String> referencePaths(@Description(name = "site", value = "Allocated type (byte[]) or allocating method (OrderCache.put), a substring") String site,
                                @Description(name = "maxPaths", value = "Objects to find chains for, 1-64 (3)") int maxPaths,
                                @Description(name = "maxDepth", value = "References followed from a root or static field, 1-" + PathOptions.MAX_MAX_DEPTH + " (32)") int maxDepth,
                                @Description(name = "maxObjects", value = "Objects the walk may record, 1-16777216 (1048576; ~60 bytes of native memory each while it runs)") int maxObjects,
                                @Description(name = "timeLimit", value = "Longest walk (and pause), e.g. 2s (max 10s)") String timeLimit);

    @Description("The top sites holding live objects now")
    List<LiveRow> topLive(@Description(name = "n", value = "How many rows, 1-1000") int n);

    @Description("Leak watch: idle (none since the last reset), watching, or ended (its ranking stays available)")
    String getLeakWatchState();

    @Description("Live snapshots the current or last leak watch took (a count)")
    int getLeakWatchSnapshots();

    @Description("Starts a leak watch: a capture for the whole duration and a live snapshot every step, sites ranked by leak"
            + " evidence (growth of live bytes, age against the time watched, survival across GCs)")
    void startLeakWatch(@Description(name = "duration", value = "How long to watch, e.g. 5m (max 7 days)") String duration,
                        @Description(name = "every", value = "Time between live snapshots, e.g. 15s (1s to duration)") String every);

    @Description("Starts a leak watch with every option. WARNING: gc forces a full collection before each snapshot, which"
            + " pauses the application")
    void startLeakWatch(@Description(name = "duration", value = "How long to watch, e.g. 5m (max 7 days)") String duration,
                        @Description(name = "every", value = "Time between live snapshots, e.g. 15s (1s to duration)") String every,
                        @Description(name = "interval", value = "Mean bytes between samples, e.g. 512k") String interval,
                        @Description(name = "gc", value = "Force a full collection before each snapshot: proves what is live, pauses the application") boolean gc,
                        @Description(name = "client", value = "Who starts it (shown to anyone who finds it running)") String client);

    @Description("Ends the leak watch now with a last snapshot, and stops its capture; harmless when none runs")
    void stopLeakWatch();

    @Description("The current leak ranking: leak suspects first, each site with its verdict (leak suspect, cache-like,"
            + " stable, transient, undecided), confidence and evidence")
    List<LeakRow> leakRanking(@Description(name = "n", value = "How many rows, 1-1000") int n);

    @Description("The leak report as bytes: text, json (with each site's series) or html (a chart of live bytes over time)")
    byte[] leakReport(@Description(name = "format", value = "text, json or html") String format);
}
