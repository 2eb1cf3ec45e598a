package io.heaptap.http.route;

import java.util.concurrent.CompletableFuture;

/** A route's work. Most answer at once; {@code /debug/pprof?seconds=N} answers N seconds later. */
@FunctionalInterface
public interface Handler {

    CompletableFuture<Response> handle(Request request) throws Exception;

    /** A handler that answers at once. */
    static Handler now(Immediate immediate) {
        return request -> CompletableFuture.completedFuture(immediate.handle(request));
    }

    @FunctionalInterface
    interface Immediate {
        Response handle(Request request) throws Exception;
    }
}
