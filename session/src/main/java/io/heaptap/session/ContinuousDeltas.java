package io.heaptap.session;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.format.ProfileFormat;

import java.util.function.Function;

/**
 * The OTLP push's deltas of continuous sampling: a baseline of its own (as each delta scrape has), so
 * the push never moves a scraper's; each delta's end is the next one's start, from one snapshot.
 * Between pushes the baseline holds its counters (40 bytes a site) under heaptap's heap budget.
 */
final class ContinuousDeltas implements OtlpPush.Deltas {
    private static final String WHAT = "the OTLP push's delta";
    private final ProfileReader reader;
    private final Function<AllocationProfile, byte[]> encode;
    private volatile DeltaBaseline baseline;
    private volatile boolean closed;

    /** @param encode the delta as an OTLP body (called within the budget's reservation for it) */
    ContinuousDeltas(ProfileReader reader, Function<AllocationProfile, byte[]> encode) {
        this.reader = reader;
        this.encode = encode;
    }

    @Override
    public byte[] next() {
        if (closed) {
            return null;
        }
        DeltaBaseline since = baseline;
        if (since == null || !since.isOpen()) {
            set(reader.deltaBaseline(true, ProfileFormat.OTLP));
            return null;
        }
        ProfileReader.Chained<byte[]> chained = reader.withChainedDelta(since, ProfileFormat.OTLP, WHAT, encode);
        since.close();
        set(chained.next());
        return chained.value();
    }

    /** The next start; closed at once if the push was stopped meanwhile (close() then saw the old one). */
    private void set(DeltaBaseline next) {
        baseline = next;
        if (closed) {
            next.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        DeltaBaseline b = baseline;
        if (b != null) {
            b.close();
        }
    }
}
