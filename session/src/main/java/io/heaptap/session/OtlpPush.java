package io.heaptap.session;

import io.heaptap.wire.options.OtlpPushOptions;
import io.heaptap.nativeagent.NativeAgent;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Continuous sampling's profile pushed to an OTLP/HTTP receiver (an OpenTelemetry Collector) every
 * period: the delta since the last push, as one OTLP body. One thread of heaptap's own does it all
 * (decode, encode, send), with a fixed delay between pushes, so at most one is in flight and nothing
 * queues: a down or slow collector costs its timeouts once a period and a counter, never a retry.
 * A delta that was not taken (refused, unanswered, over the cap) is dropped, not kept for the next
 * push: the next push is again one period's delta, and the collector sees a gap, counted in status.
 * heaptap writes nothing to the application's output: the status carries the last error.
 */
final class OtlpPush {
    /** The continuous profile's deltas, as OTLP bodies. */
    interface Deltas {
        /**
         * The delta since the last call as an OTLP body; null when this call only set where the next
         * one starts (the first call, or the first after continuous sampling restarted).
         */
        byte[] next();

        /** Gives back what the start of the next delta holds; next() returns null from then on. */
        void close();
    }

    private final OtlpPushOptions options;
    private final Deltas deltas;
    private final OtlpSender sender;
    private final int maxBodyBytes;
    private ScheduledExecutorService executor;

    private long sent;
    private long failed;
    private long notSent;
    private long bytesSent;
    private Instant lastSentAt;
    private String lastError = "";

    OtlpPush(OtlpPushOptions options, Deltas deltas, OtlpSender sender, int maxBodyBytes) {
        this.options = options;
        this.deltas = deltas;
        this.sender = sender;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** Sets the first delta's start now, then pushes every period on a thread of its own. */
    synchronized void start() {
        try (NativeAgent.HeaptapWork ignored = NativeAgent.heaptapWork()) {
            executor = Executors.newSingleThreadScheduledExecutor(OtlpPush::pushThread);
            executor.execute(this::tick);
            long every = options.every().toNanos();
            executor.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.NANOSECONDS);
        }
    }

    /** Stops pushing; a push in flight ends within its timeouts, and its delta is dropped. */
    void stop() {
        ScheduledExecutorService e;
        synchronized (this) {
            e = executor;
            executor = null;
        }
        if (e != null) {
            e.shutdownNow();
        }
        deltas.close();
    }

    OtlpPushOptions options() {
        return options;
    }

    synchronized OtlpPushStatus status() {
        return new OtlpPushStatus(options, sent, failed, notSent, bytesSent, lastSentAt, lastError);
    }

    /** One period: the delta since the last, sent once. Never throws (a throw would end the schedule). */
    void tick() {
        byte[] body;
        try {
            body = deltas.next();
        } catch (RuntimeException | LinkageError e) {
            // continuous sampling restarted or stopped under it, or the delta did not fit heaptap's heap budget
            notSent("not sent: " + e.getMessage());
            return;
        }
        if (body == null) {
            return;
        }
        if (body.length > maxBodyBytes) {
            notSent("not sent: the body of " + body.length + " bytes is over the cap of " + maxBodyBytes + " bytes");
            return;
        }
        try {
            int status = sender.post(options.endpoint(), body);
            synchronized (this) {
                if (status / 100 == 2) {
                    sent++;
                    bytesSent += body.length;
                    lastSentAt = Instant.now();
                } else {
                    failed++;
                    lastError = "HTTP " + status + " at " + Instant.now();
                }
            }
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                failed++;
                lastError = e + " at " + Instant.now();
            }
        }
    }

    private synchronized void notSent(String why) {
        notSent++;
        lastError = why + " at " + Instant.now();
    }

    private static Thread pushThread(Runnable r) {
        Thread t = new Thread(NativeAgent.heaptapThread(r), "heaptap-otlp-push");
        t.setDaemon(true);
        return t;
    }
}
