package io.heaptap.session;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.wire.CounterWindow;
import io.heaptap.wire.DumpHeader;
import io.heaptap.wire.NativeSnapshot;
import io.heaptap.wire.SiteCounters;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The start of a delta over the next N seconds (pprof's {@code ?seconds=N}, of continuous sampling or
 * of a running capture): the counters per site id ({@link SiteCounters}, 40 bytes a site) and the
 * header as of then, never a decoded profile. It holds its share of heaptap's heap budget from
 * {@link Controller#deltaBaseline} until closed, so concurrent delta scrapes are bounded by the budget
 * for the whole of their wait; the end decodes once, under a reservation of its own
 * ({@link Controller#withDeltaProfile}).
 *
 * <p>Close it when the delta is answered, refused or abandoned (idempotent). The Controller closes it
 * early when what it counts from ends (continuous sampling stopped or restarted, the capture replaced or reset):
 * its counters are dropped and its budget given back at once, and the delta is refused at once.
 */
public final class DeltaBaseline implements AutoCloseable {
    private final boolean continuous;
    private final DumpHeader header;
    private final HeapBudget.Reservation reservation;
    private final Consumer<DeltaBaseline> forget;
    /** Null once closed: the counters are garbage as soon as their reservation is given back. */
    private volatile SiteCounters counters;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    DeltaBaseline(boolean continuous, DumpHeader header, SiteCounters counters, HeapBudget.Reservation reservation,
                  Consumer<DeltaBaseline> forget) {
        this.continuous = continuous;
        this.header = header;
        this.counters = counters;
        this.reservation = reservation;
        this.forget = forget;
    }

    /** Of continuous sampling (else of the capture). */
    public boolean continuous() {
        return continuous;
    }

    public boolean isOpen() {
        return counters != null;
    }

    /** Completes when closed, by its scrape or early by the Controller (the scrape may then answer at once). */
    public CompletionStage<Void> whenClosed() {
        return closed.copy();
    }

    /**
     * What {@code counted} (the capture's part of the counters, {@link CounterWindow#ALL} for
     * continuous sampling) counted from this baseline to {@code snapshot}, taken with {@code now}'s header.
     *
     * @throws SessionConflictException the baseline was closed, or the counters were restarted since
     */
    AllocationProfile delta(DumpHeader now, NativeSnapshot snapshot, CounterWindow counted) {
        SiteCounters base = counters;
        if (base == null || base.generation() != snapshot.generation()) {
            throw new SessionConflictException((continuous ? "continuous sampling was stopped or restarted"
                    : "the capture was replaced or reset") + " during the window; retry");
        }
        return now.since(header).profile(counted.after(base).apply(snapshot));
    }

    @Override
    public void close() {
        counters = null;
        reservation.close();
        forget.accept(this);
        closed.complete(null);
    }
}
