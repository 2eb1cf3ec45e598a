package io.heaptap.session;

import io.heaptap.wire.options.OtlpPushOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The push's counting and schedule, with fake deltas and a fake receiver. */
class OtlpPushTest {
    private static final OtlpPushOptions OPTIONS = OtlpPushOptions.parse("http://127.0.0.1:4318", "1s");

    /** Hands out the bodies queued, null for "only the start was set", or throws what is queued. */
    private static final class FakeDeltas implements OtlpPush.Deltas {
        final Deque<Object> next = new ArrayDeque<>();
        volatile boolean closed;

        @Override
        public byte[] next() {
            Object o = next.isEmpty() ? new byte[1] : next.removeFirst();
            if (o instanceof RuntimeException e) {
                throw e;
            }
            return o == NONE ? null : (byte[]) o;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static final Object NONE = new Object();

    /** Answers with the statuses queued (an IOException is thrown), recording every body. */
    private static final class FakeReceiver implements OtlpSender {
        final Deque<Object> answers = new ArrayDeque<>();
        final List<byte[]> bodies = new ArrayList<>();

        @Override
        public int post(URI endpoint, byte[] body) throws IOException {
            assertEquals(OPTIONS.endpoint(), endpoint);
            bodies.add(body);
            Object a = answers.isEmpty() ? 200 : answers.removeFirst();
            if (a instanceof IOException e) {
                throw e;
            }
            return (Integer) a;
        }
    }

    @Test
    void theFirstPeriodOnlySetsTheStartThen2xxCountsAsSent() {
        FakeDeltas deltas = new FakeDeltas();
        FakeReceiver receiver = new FakeReceiver();
        deltas.next.add(NONE);
        deltas.next.add(new byte[100]);
        deltas.next.add(new byte[50]);
        receiver.answers.add(200);
        receiver.answers.add(204);
        OtlpPush push = new OtlpPush(OPTIONS, deltas, receiver, 1000);

        push.tick();
        assertEquals(0, receiver.bodies.size(), "nothing to send before a period has passed");
        assertNull(push.status().lastSentAt());
        push.tick();
        push.tick();
        OtlpPushStatus s = push.status();
        assertEquals(2, s.sent());
        assertEquals(150, s.bytesSent());
        assertEquals(0, s.failed());
        assertNotNull(s.lastSentAt());
        assertEquals("", s.lastError());
        assertTrue(s.describe().startsWith("OTLP push to http://127.0.0.1:4318/v1development/profiles every 1.0s: 2 sent (150 B)"),
                s.describe());
    }

    @Test
    void refusalsAndSilenceAreCountedWithTheLastErrorAndNeverRetried() {
        FakeDeltas deltas = new FakeDeltas();
        FakeReceiver receiver = new FakeReceiver();
        receiver.answers.add(503);
        receiver.answers.add(new SocketTimeoutException("Read timed out"));
        receiver.answers.add(400);
        OtlpPush push = new OtlpPush(OPTIONS, deltas, receiver, 1000);

        push.tick();
        assertEquals(1, push.status().failed());
        assertTrue(push.status().lastError().startsWith("HTTP 503 at "), push.status().lastError());
        push.tick();
        assertTrue(push.status().lastError().contains("Read timed out"), push.status().lastError());
        push.tick();
        OtlpPushStatus s = push.status();
        assertEquals(3, s.failed());
        assertEquals(0, s.sent());
        assertEquals(0, s.bytesSent());
        assertTrue(s.lastError().startsWith("HTTP 400 at "), s.lastError());
        assertEquals(3, receiver.bodies.size(), "one attempt a period: a failed body is dropped, not sent again");
    }

    @Test
    void aBodyOverTheCapIsNotSentAndCounted() {
        FakeDeltas deltas = new FakeDeltas();
        FakeReceiver receiver = new FakeReceiver();
        deltas.next.add(new byte[1001]);
        deltas.next.add(new byte[1000]);
        OtlpPush push = new OtlpPush(OPTIONS, deltas, receiver, 1000);

        push.tick();
        assertEquals(0, receiver.bodies.size());
        assertEquals(1, push.status().notSent());
        assertTrue(push.status().lastError().contains("1001 bytes is over the cap of 1000 bytes"), push.status().lastError());
        push.tick();
        assertEquals(1, receiver.bodies.size(), "a body at the cap is sent");
        assertEquals(1, push.status().sent());
    }

    @Test
    void aDeltaThatCannotBeMadeIsCountedAndThePushGoesOn() {
        FakeDeltas deltas = new FakeDeltas();
        FakeReceiver receiver = new FakeReceiver();
        deltas.next.add(new SessionConflictException("continuous sampling was restarted since the last delta"));
        deltas.next.add(new HeapBudgetException("heaptap's heap budget is taken by other requests in progress; retry shortly"));
        OtlpPush push = new OtlpPush(OPTIONS, deltas, receiver, 1000);

        push.tick();
        push.tick();
        assertEquals(2, push.status().notSent());
        assertTrue(push.status().lastError().startsWith("not sent: heaptap's heap budget"), push.status().lastError());
        push.tick();
        assertEquals(1, push.status().sent());
    }

    /** The schedule: one thread, heaptap's, a daemon; the first tick at once, the next a period later; stop closes the deltas. */
    @Test
    void pushesRunOnOneDaemonThreadOfHeaptapsUntilStopped() throws Exception {
        BlockingQueue<String> threads = new ArrayBlockingQueue<>(16);
        OtlpPush.Deltas deltas = new OtlpPush.Deltas() {
            volatile boolean first = true;

            @Override
            public byte[] next() {
                threads.add(Thread.currentThread().getName() + (Thread.currentThread().isDaemon() ? " daemon" : ""));
                boolean wasFirst = first;
                first = false;
                return wasFirst ? null : new byte[1];
            }

            @Override
            public void close() {
                threads.add("closed");
            }
        };
        FakeReceiver receiver = new FakeReceiver();
        OtlpPush push = new OtlpPush(OPTIONS, deltas, (endpoint, body) -> 200, 1000);
        long began = System.nanoTime();
        push.start();
        assertEquals("heaptap-otlp-push daemon", threads.poll(10, TimeUnit.SECONDS), "the start is set at once");
        assertEquals("heaptap-otlp-push daemon", threads.poll(10, TimeUnit.SECONDS));
        assertTrue(System.nanoTime() - began >= TimeUnit.SECONDS.toNanos(1), "the first push a period after the start");
        push.stop();
        assertEquals("closed", threads.poll(10, TimeUnit.SECONDS));
        assertTrue(receiver.bodies.isEmpty());
    }
}
