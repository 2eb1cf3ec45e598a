package io.heaptap.http.pprof;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
     * @param release   runs exactly once when the answer completes, in every way it can (may be a no-op)
     */
    static <T> CompletableFuture<T> after(ScheduledExecutorService timer, Executor workers, int seconds, Supplier<T> work,
                                          Runnable onCancel, CompletionStage<?> endsEarly, Runnable release) {
        CompletableFuture<T> result = new CompletableFuture<>();
        result.whenComplete((answer, failure) -> release.run());
        Runnable answer = () -> {
            try {
                result.complete(work.get());
            } catch (RuntimeException | Error e) {  // an answer that never completes would keep what it holds
                result.completeExceptionally(e);
            }
        };
        Runnable dispatch = () -> {
            try {
                workers.execute(answer);
            } catch (RejectedExecutionException busy) {
                result.completeExceptionally(busy);
            }
        };
        ScheduledFuture<?> wait;
        try {
            wait = timer.schedule(dispatch, seconds, TimeUnit.SECONDS);
        } catch (RejectedExecutionException closing) {
            result.completeExceptionally(closing);
            return result;
        }
        if (endsEarly != null) {
            endsEarly.whenComplete((ended, failure) -> {
                if (wait.cancel(false)) {  // false: the window ended already, or the client went away
                    dispatch.run();
                }
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
