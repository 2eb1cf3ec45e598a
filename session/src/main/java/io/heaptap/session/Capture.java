package io.heaptap.session;

import io.heaptap.wire.options.CaptureOptions;
import io.heaptap.wire.CounterWindow;

import java.time.Instant;

/**
 * One capture as it was started and, once it ended, when: immutable, so the status, the profile's
 * header and the time box all read the same capture. While continuous sampling runs, a capture is a
 * window over its sampler, and its profile and samples are those counted between the window's ends.
 *
 * @param options         what it was asked to do
 * @param startedBy       who started it, escaped ({@link Sampling#clientLabel})
 * @param startedAt       when it started: it names the capture
 * @param startNanos      the same on the monotonic clock
 * @param markingsAtStart whole-heap markings the marking clock had counted when it started
 * @param forcedAtStart   forced collections it had counted then
 * @param stopNanos       when it ended on the monotonic clock; -1 while it records
 * @param counted         the part of the sampler's counters it counts: all of them for a capture of its
 *                        own sampler (they stop with it), a window's ends during continuous sampling
 */
record Capture(CaptureOptions options, String startedBy, Instant startedAt, long startNanos, long markingsAtStart,
               long forcedAtStart, long stopNanos, CounterWindow counted) {

    static Capture begin(CaptureOptions options, String startedBy, MarkingClock clock, CounterWindow counted) {
        return new Capture(options, startedBy, Instant.now(), System.nanoTime(), clock.completed(), clock.forcedCount(), -1,
                counted);
    }

    boolean recording() {
        return stopNanos < 0;
    }

    /** Ended at {@code stopNanos}, counting {@code counted} (a window's end added, or as it was). */
    Capture ended(long stopNanos, CounterWindow counted) {
        return new Capture(options, startedBy, startedAt, startNanos, markingsAtStart, forcedAtStart, stopNanos, counted);
    }

    Instant endsAt() {
        return startedAt.plus(options.duration());
    }

    /** Whether its time box has run out by {@code now} (the timer may fire a little early). */
    boolean boxEnded(long now) {
        return now - startNanos >= options.duration().toNanos();
    }

    long leftMillis(long now) {
        return recording() ? Math.max(0, options.duration().toMillis() - (now - startNanos) / 1_000_000) : 0;
    }

    /** What it has counted so far, given the sampler's count now. */
    long samples(long sampleCountNow) {
        return counted.samples(sampleCountNow);
    }

    /** How long it has recorded: until now while it records, else until it ended. */
    long recordedNanos(long now) {
        return (recording() ? now : stopNanos) - startNanos;
    }
}
