package io.heaptap.http.pprof;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An answer after a window of N seconds ({@code ?seconds=N}), without holding a worker thread while
 * waiting, that gives back what the request holds meanwhile (a delta's baseline and its share of
 * heaptap's heap budget) however it ends: answered, failed, refused by busy workers, or cancelled
 * because the client closed the connection (then the wait ends at once and {@code onCancel} runs).
 * When what it waits on ends first, it answers at once rather than at the end of the window.
 */
final class LaterAnswer {
    private LaterAnswer() {
    }

    /**
     * @param endsEarly when it completes before the window ends, the answer is made at once (what it
     *                  waited on ended: continuous sampling stopped); null for never
     * @param release   runs exactly once however the answer ends (may be a no-op): before it completes when it
     *                  is answered, failed or refused; after, when it is cancelled
     */
    static <T> CompletableFuture<T> after(ScheduledExecutorService timer, Executor workers, int seconds, Supplier<T> work,
                                          Runnable onCancel, CompletionStage<?> endsEarly, Runnable release) {
        CompletableFuture<T> result = new CompletableFuture<>();
        // Given back before the answer completes, so a client that sees it and asks again at once finds the
        // budget free; whoever cancels gives it back through the whenComplete below. Exactly once either way.
        AtomicBoolean given = new AtomicBoolean();
        Runnable giveBack = () -> {
            if (given.compareAndSet(false, true)) {
                release.run();
            }
        };
        result.whenComplete((answer, failure) -> giveBack.run());
        Consumer<Throwable> fail = failure -> {
            giveBack.run();
            result.completeExceptionally(failure);
        };
        Runnable answer = () -> {
            T made;
            try {
                made = work.get();
            } catch (RuntimeException | Error e) {  // an answer that never completes would keep what it holds
                fail.accept(e);
                return;
            }
            giveBack.run();
            result.complete(made);
        };
        // Both the timer and endsEarly dispatch, and only the first may: the answer's own release ends what it
        // waits on (a baseline's close completes its whenClosed), which can come before the timer's task counts
        // as done, so cancelling that task is no test. A second run reserved a decode's budget again for nothing,
        // and once the release came first it could answer 409 in place of the first run's 503.
        AtomicBoolean dispatched = new AtomicBoolean();
        Runnable dispatch = () -> {
            if (result.isDone() || !dispatched.compareAndSet(false, true)) {
                return;  // cancelled or refused already, or dispatched by the other
            }
            try {
                workers.execute(answer);
            } catch (RejectedExecutionException busy) {
                fail.accept(busy);
            }
        };
        ScheduledFuture<?> wait;
        try {
            wait = timer.schedule(dispatch, seconds, TimeUnit.SECONDS);
        } catch (RejectedExecutionException closing) {
            fail.accept(closing);
            return result;
        }
        if (endsEarly != null) {
            endsEarly.whenComplete((ended, failure) -> {
                wait.cancel(false);  // the hour's wait leaves the timer's queue
                dispatch.run();
            });
        }
        result.whenComplete((response, failure) -> {
            if (result.isCancelled()) {
                wait.cancel(false);
                onCancel.run();
            }
        });
        return result;
    }
}
