package io.heaptap.http.server;

import io.heaptap.http.route.ErrorResponses;
import io.heaptap.http.route.Handler;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;
import io.heaptap.session.HeapBudget;
import io.heaptap.session.HeapBudgetException;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Turns a complete request into a {@link Request}, checks access, and runs its route on a worker
 * thread (the event loop never waits on the Controller or a dump).
 *
 * <p>HTTP/1.1 pipelining: requests wait in a queue of this connection and are answered one at a
 * time; the next is taken only once the answer to this one is written, so answers leave in the
 * order the requests came, none is lost, a {@code Connection: close} is honoured after every answer
 * before it, and a malformed request later in a pipeline is answered (400, then close) in its turn.
 * The connection goes on reading while a request is in flight, so a client that goes away is
 * noticed; with {@value #MAX_PIPELINED} requests waiting it stops reading until one is answered.
 *
 * <p>When the client goes away while its request is in flight, the route's future is cancelled, so
 * a {@code /debug/pprof?seconds=N} window ends with it. A client that only shuts its sending side
 * after its request ({@code shutdown(SHUT_WR)}) looks the same on the wire until an answer is written:
 * the requests it sent are answered if that takes at most {@value #HALF_CLOSED_GRACE_MILLIS} ms, and
 * then the connection closes.
 *
 * <p>A large answer holds its share of heaptap's heap budget until it is written (a client that
 * reads slowly or not at all keeps it referenced), and is refused (503) when that does not fit.
 */
final class Dispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {
    static final int MAX_PIPELINED = 16;
    static final long HALF_CLOSED_GRACE_MILLIS = 5_000;
    /** Answers above this size hold a reservation of heaptap's heap budget until written. */
    static final int HELD_ANSWER_BYTES = 64 * 1024;
    private final Router router;
    private final AccessCheck access;
    private final Executor workers;
    private final ConnectionSlots slots;
    private final HeapBudget budget;
    private boolean inputShut;  // on the event loop only
    private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
    private boolean busy;  // on the event loop only
    private volatile CompletableFuture<Response> inFlight;
    private volatile boolean closed;

    Dispatcher(Router router, AccessCheck access, Executor workers, ConnectionSlots slots, HeapBudget budget) {
        this.router = router;
        this.access = access;
        this.workers = workers;
        this.slots = slots;
        this.budget = budget;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent) {
            inputShut = true;
            if (!busy && pending.isEmpty()) {
                ctx.close();
            } else {
                ctx.executor().schedule(() -> ctx.close(), HALF_CLOSED_GRACE_MILLIS, TimeUnit.MILLISECONDS);
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closed = true;
        pending.forEach(FullHttpRequest::release);
        pending.clear();
        CompletableFuture<Response> running = inFlight;
        if (running != null) {
            running.cancel(false);
        }
        super.channelInactive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
        ctx.pipeline().fireUserEventTriggered(RequestDeadline.REQUEST_RECEIVED);
        pending.add(msg.retain());
        if (pending.size() >= MAX_PIPELINED) {
            ctx.channel().config().setAutoRead(false);
        }
        if (!busy) {
            next(ctx);
        }
    }

    /** Takes the next waiting request, or, with none, reads again and starts the wait for one. */
    private void next(ChannelHandlerContext ctx) {
        FullHttpRequest msg = pending.poll();
        if (pending.size() < MAX_PIPELINED && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
        if (msg == null) {
            busy = false;
            if (inputShut) {
                ctx.close();  // the client sends nothing more, and all it sent is answered
            } else {
                ctx.pipeline().fireUserEventTriggered(RequestDeadline.READY_FOR_NEXT);
            }
            return;
        }
        busy = true;
        try {
            handle(ctx, msg);
        } finally {
            msg.release();
        }
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest msg) {
        if (msg.decoderResult().isFailure()) {
            Throwable cause = msg.decoderResult().cause();
            int status = cause instanceof TooLongHttpContentException ? 413
                    : cause instanceof TooLongHttpHeaderException ? 431 : cause instanceof TooLongFrameException ? 414 : 400;
            respond(ctx, ErrorResponses.of(status, status == 413 ? cause.getMessage() : "malformed HTTP request: " + cause.getMessage(),
                    null), false, null);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(msg);
        String cors = access.corsOrigin(msg.headers());
        Request request;
        Handler handler;
        try {
            if (access.isAllowedPreflight(msg.method(), msg.headers())) {
                respond(ctx, preflight(), keepAlive, cors);
                return;
            }
            AccessCheck.Passed passed = access.check(msg.protocolVersion(), msg.method(), msg.headers());
            slots.prove(ctx.channel());
            Map<String, String> headers = new HashMap<>();
            msg.headers().forEach(h -> headers.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
            QueryStringDecoder uri = new QueryStringDecoder(msg.uri());
            String raw = msg.uri();
            int q = raw.indexOf('?');
            request = new Request(msg.method().name(), uri.path(), q < 0 ? raw : raw.substring(0, q), uri.parameters(), headers,
                    ByteBufUtil.getBytes(msg.content()), client(ctx), passed.unforgeable());
            handler = router.route(request.method(), request.path());
        } catch (RuntimeException e) {
            respond(ctx, ErrorResponses.of(e), keepAlive, cors);
            return;
        }
        try {
            workers.execute(() -> {
                if (closed) {
                    return;  // the client went away while its request waited for a worker: nobody would read the answer
                }
                CompletableFuture<Response> answer = start(handler, request);
                inFlight = answer;
                if (closed) {
                    answer.cancel(false);
                }
                answer.whenComplete((response, failure) -> {
                    inFlight = null;
                    respond(ctx, failure == null ? response : ErrorResponses.of(failure), keepAlive, cors);
                });
            });
        } catch (RejectedExecutionException full) {
            respond(ctx, ErrorResponses.of(full), keepAlive, cors);
        }
    }

    private static CompletableFuture<Response> start(Handler handler, Request request) {
        try {
            return handler.handle(request);
        } catch (Exception | OutOfMemoryError e) {
            // heaptap's own allocation failing is heaptap's failure, answered as such; never the application's.
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Writes the answer; then takes the next request, or closes. */
    private void respond(ChannelHandlerContext ctx, Response response, boolean keepAlive, String cors) {
        HeapBudget.Reservation held = null;
        if (response.body().length > HELD_ANSWER_BYTES && !response.sharedBody() && ctx.channel().isActive()) {
            try {
                // Waits a little for other answers to go out, except on the event loop, which never waits.
                held = budget.reserve(response.body().length, "an answer waiting to be written to its client",
                        "ask for less", !ctx.executor().inEventLoop());
            } catch (HeapBudgetException e) {
                response = ErrorResponses.of(e);
            }
        }
        HeapBudget.Reservation release = held;
        Responses.send(ctx.channel(), response, keepAlive, cors).addListener(f -> {
            if (release != null) {
                release.close();  // written, or the connection closed: the body is no longer referenced by it
            }
            if (keepAlive && f.isSuccess() && ctx.channel().isActive()) {
                next(ctx);  // the listener runs on the event loop
            }
        });
    }

    private static Response preflight() {
        return new Response(204, "text/plain", new byte[0], Map.of(
                "Access-Control-Allow-Methods", "GET, POST",
                "Access-Control-Allow-Headers", "Authorization, Content-Type",
                "Access-Control-Max-Age", "600"));
    }

    private static String client(ChannelHandlerContext ctx) {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress a) {
            return a.getAddress().getHostAddress() + ":" + a.getPort();
        }
        return String.valueOf(ctx.channel().remoteAddress());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset connection or a protocol error: nothing to tell anyone, and never the target's console.
        ctx.close();
    }
}
