package io.heaptap.jmx;

import io.heaptap.wire.options.CaptureOptions;

import java.util.List;

import javax.management.MBeanOperationInfo;

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
    long getEstimatedAllocatedBytes();

    @Description("Bytes proven live now: tracked objects still referenced after a whole-heap marking that began after their"
            + " allocation (an estimate)")
    long getEstimatedLiveBytes();

    @Description("Lower end of the 95% interval of EstimatedLiveBytes")
    long getEstimatedLiveBytesLow();

    @Description("Upper end of the 95% interval of EstimatedLiveBytes")
    long getEstimatedLiveBytesHigh();

    @Description("Bytes of live objects no whole-heap marking has examined yet (an estimate; may be garbage)")
    long getUnexaminedLiveBytes();

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
    long getAllocationRateBytesPerSecond();

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

    @Description("Starts the default capture: 30 s, about 5,000 samples/s kept under the default cost bound (the CPU share in"
            + " SamplingCost), live tracking on")
    @Impact(MBeanOperationInfo.ACTION)
    void start();

    @Description("Starts a capture; a blank field (or default) takes the default: 30 s, the cost-bounded default sampling,"
            + " live tracking on")
    @Impact(MBeanOperationInfo.ACTION)
    void start(@Description(name = "duration") String duration,
               @Description(name = "interval") String interval,
               @Description(name = "rate") String rate);

    @Description("Starts a capture with every option; a blank field, default, or 0 in a number field takes the default")
    @Impact(MBeanOperationInfo.ACTION)
    void start(@Description(name = "duration") String duration,
               @Description(name = "interval") String interval,
               @Description(name = "rate") String rate,
               @Description(name = "depth") int depth,
               @Description(name = "maxStacks") int maxStacks,
               @Description(name = "live") String live,
               @Description(name = "liveBudget") int liveBudget,
               @Description(name = "liveBytes") String liveBytes,
               @Description(name = "client", value = "Who starts it (shown to anyone who finds it running). Default: jmx.") String client);

    @Description("Ends the capture now; harmless when nothing is recording. Tracked objects stay tracked until reset")
    @Impact(MBeanOperationInfo.ACTION)
    void stop();

    @Description("Forgets everything recorded and deletes every weak reference; harmless when idle")
    @Impact(MBeanOperationInfo.ACTION)
    void reset();

    @Description("Writes a dump of the current or last capture into the dump directory and returns its path")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String dump(@Description(name = "format", value = "text, pprof, collapsed, json or html") String format);

    @Description("Writes a dump under a plain file name into the dump directory and returns its path")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String dump(@Description(name = "format", value = "text, pprof, collapsed, json or html") String format,
                @Description(name = "fileName", value = "A plain file name, e.g. profile.pb.gz (no folders)") String fileName);

    @Description("The dump as text (text, collapsed, json or html), encoded in this JVM within heaptap's heap budget (refused"
            + " if too big); the live view filtered by age and GCs survived. WARNING: gc forces a full collection first")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String dumpText(@Description(name = "format", value = "text, collapsed, json or html. Default: text") String format,
                    @Description(name = "minAge", value = "Only live objects at least this old, e.g. 10s. Default: all") String minAge,
                    @Description(name = "minGcs", value = "Only live objects that survived this many GCs. Default: 0, all") long minGcs,
                    @Description(name = "gc", value = "Force a full GC first (pauses the application). Default: false") boolean gc);

    @Description("The dump as bytes, for the binary formats (pprof, otlp), encoded in this JVM within heaptap's heap budget"
            + " (refused if too big: the CLI fetches any size through the RawDumps MBean). WARNING: gc forces a full collection first")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    byte[] dumpBytes(@Description(name = "format", value = "pprof or otlp (any format's bytes). Default: pprof") String format,
                     @Description(name = "minAge", value = "Only live objects at least this old, e.g. 10s. Default: all") String minAge,
                     @Description(name = "minGcs", value = "Only live objects that survived this many GCs. Default: 0, all") long minGcs,
                     @Description(name = "gc", value = "Force a full GC first (pauses the application). Default: false") boolean gc);

    @Description("The top allocation sites of the current or last capture")
    List<AllocationRow> topAllocations(@Description(name = "n", value = "How many rows, 1-1000. Default (0): 20") int n);

    @Description("Starts heaptap's HTTP endpoint on 127.0.0.1 (REST API, web page, /debug/pprof, /jolokia) and returns its URL;"
            + " every request needs the token in HttpTokenFile. When it already serves, returns the running server's URL")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String startServing(@Description(name = "port") int port);

    @Description("Starts heaptap's HTTP endpoint with every option and returns its URL; when it already serves, returns the"
            + " running server's URL")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String startServing(@Description(name = "bind") String bind,
                        @Description(name = "port") int port,
                        @Description(name = "token") String token,
                        @Description(name = "allowOrigin", option = "cors-origin") String allowOrigin);

    @Description("Stops heaptap's HTTP endpoint; returns whether it was serving")
    @Impact(MBeanOperationInfo.ACTION)
    boolean stopServing();

    @Description("Continuous sampling (for Pyroscope/Alloy and Parca scraping /debug/pprof): since when, the service, the"
            + " interval now; empty when off")
    String getContinuous();

    @Description("Starts continuous sampling until stopContinuous: /debug/pprof/allocs becomes cumulative since now and is"
            + " never reset; captures meanwhile are windows over it. Returns what getContinuous then says")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String startContinuous(@Description(name = "service") String service);

    @Description("Pushes continuous sampling's profile to an OpenTelemetry Collector's OTLP/HTTP receiver every period, as OTLP"
            + " profiles (alpha), until continuous sampling stops. Returns the push's status line")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String startOtlpPush(@Description(name = "url", option = "otlp-push") String url,
                         @Description(name = "every", option = "otlp-every") String every);

    @Description("Stops continuous sampling (and a capture running over it); harmless when off")
    @Impact(MBeanOperationInfo.ACTION)
    void stopContinuous();

    @Description("How is it held? Reference chains from a GC root or static field to the oldest tracked objects of a site,"
            + " one line each. WARNING: the heap walk pauses the application (at most timeLimit)")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    List<String> referencePaths(@Description(name = "site", value = "Allocated type (byte[]) or allocating method (OrderCache.put), a substring") String site,
                                @Description(name = "maxPaths") int maxPaths,
                                @Description(name = "maxDepth") int maxDepth,
                                @Description(name = "maxObjects") int maxObjects,
                                @Description(name = "timeLimit") String timeLimit);

    @Description("The top sites holding live objects now")
    List<LiveRow> topLive(@Description(name = "n", value = "How many rows, 1-1000. Default (0): 20") int n);

    @Description("Leak watch: idle (none since the last reset), watching, or ended (its ranking stays available)")
    String getLeakWatchState();

    @Description("Live snapshots the current or last leak watch took (a count)")
    int getLeakWatchSnapshots();

    @Description("The current or last leak watch's projected time until the heap is exhausted, with its 95% interval, from the"
            + " heap after each collection it forced; or why there is none. Empty when no watch with gc has run")
    String getTimeToOom();

    @Description("Starts a leak watch: a capture for the whole duration and a live snapshot every step, sites ranked by leak"
            + " evidence (growth of live bytes, age against the time watched, survival across GCs)")
    @Impact(MBeanOperationInfo.ACTION)
    void startLeakWatch(@Description(name = "duration") String duration,
                        @Description(name = "every") String every);

    @Description("Starts a leak watch with every option. WARNING: gc forces a full collection before each snapshot, which"
            + " pauses the application")
    @Impact(MBeanOperationInfo.ACTION)
    void startLeakWatch(@Description(name = "duration") String duration,
                        @Description(name = "every") String every,
                        @Description(name = "interval") String interval,
                        @Description(name = "gc") boolean gc,
                        @Description(name = "client", value = "Who starts it (shown to anyone who finds it running)") String client);

    @Description("Ends the leak watch now with a last snapshot, and stops its capture; harmless when none runs")
    @Impact(MBeanOperationInfo.ACTION)
    void stopLeakWatch();

    @Description("The current leak ranking: leak suspects first, each site with its verdict (leak suspect, cache-like,"
            + " stable, transient, undecided), confidence and evidence")
    List<LeakRow> leakRanking(@Description(name = "n", value = "How many rows, 1-1000. Default (0): 20") int n);

    @Description("The leak report: text, json (with each site's series) or html (a chart of live bytes over time)")
    String leakReport(@Description(name = "format", value = "text, json or html. Default: text") String format);

    @Description("An exact class census of the whole heap now (instances and bytes per class): a forced whole-heap"
            + " collection, then the JVM's own GC.class_histogram. Pauses the application twice; needs no capture")
    @Impact(MBeanOperationInfo.ACTION_INFO)
    String classCensus(@Description(name = "n", value = "How many classes by name, 1-1000; the rest is one row. Default (0): 20") int n,
                       @Description(name = "format", value = "text or json. Default: text") String format);
}
