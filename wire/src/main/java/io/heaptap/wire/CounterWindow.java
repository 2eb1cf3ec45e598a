package io.heaptap.wire;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Drops;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of the agent's counters a profile counts: the one delta of heaptap. The agent's counters
 * only grow within a generation (a start or reset), so every delta is two readings of them: a
 * capture during continuous sampling (its start, and once ended its end), a delta scrape
 * ({@code ?seconds=N}: its baseline), the OTLP push (the last push). It is applied to a snapshot in
 * the target and, for a raw dump, in the CLI ({@link RawDump}), with the same code.
 *
 * @param from  counters at its start; null: from the generation's start
 * @param until counters at its end; null: until the snapshot (still counting)
 */
public record CounterWindow(SiteCounters from, SiteCounters until) {
    /** Every counter as it stands. */
    public static final CounterWindow ALL = new CounterWindow(null, null);

    /** From {@code from} on, still counting. */
    public static CounterWindow since(SiteCounters from) {
        return new CounterWindow(from, null);
    }

    /** This window ended at {@code end} (counters read then). */
    public CounterWindow endedAt(SiteCounters end) {
        return new CounterWindow(from, end);
    }

    /**
     * The part of this window after {@code later} (counters read within or after it): a delta scrape
     * of a capture. Counters only grow, so the later reading is the start, whatever this one's was.
     */
    public CounterWindow after(SiteCounters later) {
        return new CounterWindow(later, until);
    }

    /** Samples counted in it, given the sampler's sample count now (cheap: no snapshot). */
    public long samples(long samplesNow) {
        return (until == null ? samplesNow : until.samples()) - (from == null ? 0 : from.samples());
    }

    /** The heap its counters take ({@link SiteCounters#heapBytes}). */
    public long heapBytes() {
        return (from == null ? 0 : from.heapBytes()) + (until == null ? 0 : until.heapBytes());
    }

    /**
     * What {@code s} (a snapshot of the same generation) counted in this window: per site id, the
     * counters at the end (the snapshot's, or {@link #until}'s, where a site made after the end counts
     * nothing) minus those at the start (a site made since counts whole). The live set is as it is
     * now: in-use is a state, not a flow. The stacks are shared, not copied.
     *
     * @throws IllegalArgumentException the counters belong to another generation (the agent was
     *                                  started or reset since: its site ids mean other sites now)
     */
    public NativeSnapshot apply(NativeSnapshot s) {
        if (from == null && until == null) {
            return s;
        }
        check(from, s);
        check(until, s);
        List<AllocationSite> sites = s.sites();
        List<AllocationSite> counted = new ArrayList<>(sites.size());
        for (int i = 0; i < sites.size(); i++) {
            AllocationSite site = sites.get(i);
            boolean ended = until != null;
            boolean made = ended && i >= until.sites();  // after the end: nothing of it is in the window
            long samples = made ? 0 : ended ? until.samplesAt(i) : site.samples();
            double objects = made ? 0 : ended ? until.objectsAt(i) : site.estimatedObjects();
            double bytes = made ? 0 : ended ? until.bytesAt(i) : site.estimatedBytes();
            double objectsVariance = made ? 0 : ended ? until.objectsVarianceAt(i) : site.objectsVariance();
            double bytesVariance = made ? 0 : ended ? until.bytesVarianceAt(i) : site.bytesVariance();
            if (from != null && i < from.sites()) {
                samples -= from.samplesAt(i);
                objects -= from.objectsAt(i);
                bytes -= from.bytesAt(i);
                objectsVariance -= from.objectsVarianceAt(i);
                bytesVariance -= from.bytesVarianceAt(i);
            }
            // Counters only grow within a generation; max() guards the estimates against rounding,
            // and a start read after the end (a delta scrape begun after its capture ended) counts nothing.
            counted.add(new AllocationSite(site.stack(), site.truncated(), site.type(), Math.max(0, samples), Math.max(0, objects),
                    Math.max(0, bytes), Math.max(0, objectsVariance), Math.max(0, bytesVariance), site.live()));
        }
        long endSamples = until == null ? s.samples() : until.samples();
        Drops end = until == null ? s.drops() : until.drops();
        Drops start = from == null ? new Drops(0, 0, 0, 0, 0, 0, 0) : from.drops();
        Drops drops = new Drops(Math.max(0, end.samplesDropped() - start.samplesDropped()),
                Math.max(0, end.samplesWithoutStack() - start.samplesWithoutStack()),
                Math.max(0, end.samplesStackError() - start.samplesStackError()),
                Math.max(0, end.samplesTruncated() - start.samplesTruncated()),
                Math.max(0, end.samplesAfterDeadline() - start.samplesAfterDeadline()),
                Math.max(0, end.classesDropped() - start.classesDropped()), s.drops().methodsUnresolved());
        return new NativeSnapshot(s.generation(), s.intervalBytes(), s.stackDepth(),
                Math.max(0, endSamples - (from == null ? 0 : from.samples())), drops, s.live(), counted);
    }

    private static void check(SiteCounters c, NativeSnapshot s) {
        if (c != null && c.generation() != s.generation()) {
            throw new IllegalArgumentException("the counters are of generation " + c.generation() + ", the snapshot of "
                    + s.generation());
        }
    }

    /** Bytes {@link #write} writes. */
    public long wireBytes() {
        return 2 + (from == null ? 0 : SiteCounters.wireBytes(from.sites())) + (until == null ? 0 : SiteCounters.wireBytes(until.sites()));
    }

    /** As a raw dump carries it, before the snapshot it applies to. */
    public void write(DataOutputStream out) throws IOException {
        out.writeBoolean(from != null);
        if (from != null) {
            from.write(out);
        }
        out.writeBoolean(until != null);
        if (until != null) {
            until.write(out);
        }
    }

    public static CounterWindow read(DataInputStream in) throws IOException {
        SiteCounters from = in.readBoolean() ? SiteCounters.read(in) : null;
        SiteCounters until = in.readBoolean() ? SiteCounters.read(in) : null;
        return new CounterWindow(from, until);
    }
}
