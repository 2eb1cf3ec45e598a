package io.heaptap.session;

import io.heaptap.nativeagent.LiveTracking;
import io.heaptap.nativeagent.NativeAgentException;
import io.heaptap.nativeagent.PathSearch;
import io.heaptap.nativeagent.RawSnapshot;
import io.heaptap.nativeagent.Sampler;
import io.heaptap.nativeagent.SamplerSettings;
import io.heaptap.nativeagent.Snapshots;
import io.heaptap.nativeagent.TableSizes;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Drops;
import io.heaptap.profile.LiveFilter;
import io.heaptap.profile.LiveInfo;
import io.heaptap.profile.Markings;
import io.heaptap.wire.LiveProof;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.SiteCounters;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A sampler without a native library, for the session's unit tests: it records what the Controller
 * asks of it and answers with an empty profile. {@link #refuseStart} makes the next start fail as
 * the native agent does when another profiler holds the capability. {@link #allocate} makes it an
 * application allocating that many bytes per second: its sample count then grows as a sampler's at
 * the interval in force would, in real time.
 */
final class FakeSampler implements Sampler, Snapshots {
    volatile boolean sampling;
    volatile int starts;
    volatile int stops;
    volatile int clears;
    volatile int forcedGcs;
    volatile boolean forceGcRefused;
    /** What a forced collection does in the JVM (the controller checks that a collection ran); nothing, to fake a skipped one. */
    volatile Runnable onForceGc = System::gc;
    /** Runs once, on the reading thread, inside the next read of the native memory (a session's status reads it under its lock). */
    final AtomicReference<Runnable> onNextNativeMemoryRead = new AtomicReference<>();
    /** The live table's upkeep, as the live tracker drives it. */
    final FakeLiveTracking live = new FakeLiveTracking();
    volatile Duration lastDuration;
    volatile long lastInterval;
    volatile int lastLiveBudget;
    volatile long lastByteBudget;
    volatile long lastLargeByteBudget;
    volatile boolean lastYoungHeld;
    volatile NativeAgentException refuseStart;
    /** The sites every snapshot shows (in site-id order), and the table sizes reported. */
    volatile List<AllocationSite> sites = List.of();
    volatile TableSizes tableSizes = new TableSizes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    volatile int countersRead;
    /** Every interval set while sampling, in order. */
    final List<Long> intervalsSet = new CopyOnWriteArrayList<>();
    /** Every least JVM interval passed with them (the cost bound's, JDK 11-24), in order. */
    final List<Long> jvmFloorsSet = new CopyOnWriteArrayList<>();
    private double bytesPerSecond = -1;  // < 0: the fixed count 7 per start
    private double simulatedSamples;
    /** What each simulated sample costs the callback ({@link #sampleNanos}); 0: nothing. */
    volatile double nanosPerSample;
    private double simulatedSampleNanos;
    private long simulatedNanos;

    @Override
    public synchronized void start(SamplerSettings settings) throws NativeAgentException {
        if (refuseStart != null) {
            NativeAgentException e = refuseStart;
            refuseStart = null;
            throw e;
        }
        starts++;
        sampling = true;
        lastDuration = settings.duration();
        lastInterval = settings.intervalBytes();
        lastLiveBudget = settings.liveBudget();
        lastByteBudget = settings.byteBudget();
        lastLargeByteBudget = settings.largeByteBudget();
        lastYoungHeld = settings.youngHeld();
        simulatedSamples = 0;
        simulatedNanos = System.nanoTime();
    }

    /** From now on the application allocates this many bytes per second. */
    synchronized void allocate(double bytesPerSecond) {
        advance();
        this.bytesPerSecond = bytesPerSecond;
    }

    private void advance() {
        long now = System.nanoTime();
        if (sampling && bytesPerSecond > 0) {
            double samples = (now - simulatedNanos) / 1e9 * bytesPerSecond / lastInterval;
            simulatedSamples += samples;
            simulatedSampleNanos += samples * nanosPerSample;
        }
        simulatedNanos = now;
    }

    @Override
    public synchronized boolean setInterval(long intervalBytes, long allocatedBytesPerSecond, long minJvmIntervalBytes) {
        if (!sampling) {
            return false;
        }
        advance();
        lastInterval = intervalBytes;
        intervalsSet.add(intervalBytes);
        jvmFloorsSet.add(minJvmIntervalBytes);
        return true;
    }

    /** The JVM's events: the kept samples (the fake thins nothing, and its JVM interval is 0). */
    @Override
    public synchronized long jvmEvents() {
        return sampleCount();
    }

    /** 0: no JVM events beyond the kept samples to price, whatever JDK runs the tests. */
    @Override
    public long jvmIntervalBytes() {
        return 0;
    }

    @Override
    public synchronized void stop() {
        advance();
        stops++;
        sampling = false;
    }

    @Override
    public LiveTracking live() {
        return live;
    }

    /** Its reads are of its own state (the sites, the sample count, the hold). */
    @Override
    public Snapshots snapshots() {
        return this;
    }

    @Override
    public boolean forceGc() {
        forcedGcs++;
        if (!forceGcRefused) {
            onForceGc.run();
        }
        return !forceGcRefused;
    }

    @Override
    public synchronized void clear() {
        clears++;
    }

    @Override
    public synchronized long sampleCount() {
        if (bytesPerSecond < 0) {
            return 7 * starts;
        }
        advance();
        return (long) simulatedSamples;
    }

    @Override
    public synchronized long sampleNanos() {
        advance();
        return (long) simulatedSampleNanos;
    }

    @Override
    public long nativeMemoryBytes() {
        Runnable hook = onNextNativeMemoryRead.getAndSet(null);
        if (hook != null) {
            hook.run();
        }
        return 4096;
    }

    @Override
    public NativeSnapshot snapshot(LiveFilter filter, LiveProof proof) {
        LiveInfo tracked = new LiveInfo(true, 65536, 0, 1.0, 0, 0, 0, 0, 0, 0, Math.max(0, live.gcCount), filter, proof.gcForced(),
                Markings.NONE, 1 << 20, 1 << 30, live.hold.withPolicy(proof.policy().share(), proof.policy().strict(),
                proof.policy().collector()));
        return new NativeSnapshot(starts, lastInterval, 64, sampleCount(), new Drops(0, 0, 0, 0, 0, 0, 0), tracked, sites);
    }

    @Override
    public SiteCounters counters() {
        countersRead++;
        return SiteCounters.of(snapshot(LiveFilter.NONE, LiveProof.NONE));
    }

    @Override
    public RawSnapshot openSnapshot(LiveProof proof) throws IOException {
        throw new IOException("the fake sampler has no raw snapshots");
    }

    @Override
    public TableSizes tableSizes() {
        return tableSizes;
    }

    @Override
    public PathSearch referencePaths(int[] sites, int maxPaths, int maxDepth, int maxObjects, Duration timeLimit)
            throws IOException {
        throw new IOException("the fake sampler walks no heap");
    }
}
