package io.heaptap.http.pprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An answer after a window gives back what the request holds (a delta's baseline and its budget)
 * exactly once, however it ends: answered, failed, refused by busy workers, refused by a closing
 * timer, or cancelled mid-wait because the client went away. Whoever sees an answer sees it given
 * back already (it was once given back just after, and 4 in 3,000 runs read it still held).
 */
class LaterAnswerTest {
    /** Generous: a loaded 2-core machine may be slow to run a timer, never this slow. */
    private static final long AWAIT_SECONDS = 60;

    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final ExecutorService workers = Executors.newSingleThreadExecutor();

    {
        timer.setRemoveOnCancelPolicy(true);
    }
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger cancelled = new AtomicInteger();

    @AfterEach
    void shutDown() {
        timer.shutdownNow();
        workers.shutdownNow();
    }

    @Test
    void answeredReleasesOnce() throws Exception {
        CompletableFuture<String> answer = LaterAnswer.after(timer, workers, 0, () -> {
            assertEquals(0, released.get(), "held while the answer is made");
            return "delta";
        }, cancelled::incrementAndGet, null, released::incrementAndGet);
        assertEquals("delta", answer.get(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, released.get());
        assertEquals(0, cancelled.get());
    }

    @Test
    void aFailedAnswerReleasesOnce() {
        CompletableFuture<String> answer = LaterAnswer.after(timer, workers, 0, () -> {
            throw new IllegalStateException("continuous sampling was stopped");
        }, cancelled::incrementAndGet, null, released::incrementAndGet);
        ExecutionException e = assertThrows(ExecutionException.class, () -> answer.get(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals(1, released.get());
    }

    @Test
    void busyWorkersReleaseOnce() {
        Executor refusing = task -> {
            throw new RejectedExecutionException("busy");
        };
        CompletableFuture<String> answer = LaterAnswer.after(timer, refusing, 0, () -> "never",
                cancelled::incrementAndGet, null, released::incrementAndGet);
        ExecutionException e = assertThrows(ExecutionException.class, () -> answer.get(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertEquals(1, released.get());
    }

    @Test
    void aClosingTimerReleasesAtOnce() {
        timer.shutdown();
        CompletableFuture<String> answer = LaterAnswer.after(timer, workers, 10, () -> "never",
                cancelled::incrementAndGet, null, released::incrementAndGet);
        assertTrue(answer.isCompletedExceptionally());
        assertEquals(1, released.get());
    }

    @Test
    void theClientGoingAwayMidWaitReleasesAtOnceAndTheWorkNeverRuns() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        CompletableFuture<String> answer = LaterAnswer.after(timer, workers, 3600, () -> {
            ran.countDown();
            return "never";
        }, cancelled::incrementAndGet, null, released::incrementAndGet);
        assertEquals(0, released.get(), "held while waiting");
        answer.cancel(false);  // what the dispatcher does when the connection closes
        assertEquals(1, released.get());
        assertEquals(1, cancelled.get());
        assertTrue(timer.getQueue().isEmpty(), "the wait was cancelled, not left to run for an hour");
        assertEquals(1, ran.getCount());
    }

    /**
     * The release of a delta's baseline ends what the answer waits on (its close completes whenClosed):
     * that must not dispatch the work again. The answer here runs inside the timer's task, before the
     * task counts as done (a worker can be that quick), so cancelling the task succeeds after the work ran.
     */
    @Test
    void theWorkRunsOnceWhenItsOwnReleaseEndsWhatItWaitsOn() throws Exception {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch returned = new CountDownLatch(1);
        Executor inTheTimersTask = task -> {
            try {
                returned.await();  // every listener is in place, as when a window of seconds ends
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            task.run();
        };
        CompletableFuture<String> answer = LaterAnswer.after(timer, inTheTimersTask, 0, () -> "delta, run " + runs.incrementAndGet(),
                cancelled::incrementAndGet, closed, () -> {
                    released.incrementAndGet();
                    closed.complete(null);  // what DeltaBaseline.close does
                });
        returned.countDown();
        assertEquals("delta, run 1", answer.get(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, runs.get(), "the work ran once");
        assertEquals(1, released.get());
    }

    @Test
    void whatItWaitsOnEndingAnswersAtOnce() throws Exception {
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        CompletableFuture<String> answer = LaterAnswer.after(timer, workers, 3600, () -> "refused: continuous sampling is off",
                cancelled::incrementAndGet, stopped, released::incrementAndGet);
        assertEquals(0, released.get());
        stopped.complete(null);  // heaptap stop --continuous
        assertEquals("refused: continuous sampling is off", answer.get(AWAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, released.get());
        assertTrue(timer.getQueue().isEmpty(), "the hour's wait was cancelled");
    }
}
