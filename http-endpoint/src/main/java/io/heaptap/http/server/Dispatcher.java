package io.heaptap.http.server;

import io.heaptap.http.route.ErrorResponses;
import io.heaptap.http.route.Handler;
import io.heaptap.http.route.Request;
import io.heaptap.http.route.Response;
import io.heaptap.http.route.Router;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Turns a complete request into a {@link Request}, checks access, and runs its route on a worker
 * thread (the event loop never waits on the Controller or a dump). One request per connection is
 * in flight: reading pauses until its response is written, so pipelined requests cannot overtake.
 */
final class Dispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final Router router;
    private final AccessCheck access;
    private final Executor workers;

    Dispatcher(Router router, AccessCheck access, Executor workers) {
        this.router = router;
        this.access = access;
        this.workers = workers;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
        if (msg.decoderResult().isFailure()) {
            Throwable cause = msg.decoderResult().cause();
            int status = cause instanceof TooLongHttpHeaderException ? 431 : cause instanceof TooLongFrameException ? 414 : 400;
            Responses.sendAndClose(ctx.channel(), status, "malformed HTTP request: " + cause.getMessage());
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(msg);
        Map<String, String> headers = new HashMap<>();
        msg.headers().forEach(h -> headers.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
        String cors = access.corsOrigin(headers);
        Request request;
        Handler handler;
        try {
            access.check(headers);
            QueryStringDecoder uri = new QueryStringDecoder(msg.uri());
            String raw = msg.uri();
            int q = raw.indexOf('?');
            request = new Request(msg.method().name(), uri.path(), q < 0 ? raw : raw.substring(0, q), uri.parameters(), headers,
                    ByteBufUtil.getBytes(msg.content()), client(ctx));
            if (msg.method().equals(HttpMethod.OPTIONS) && cors != null) {
                respond(ctx, preflight(), keepAlive, cors);
                return;
            }
            handler = router.route(request.method(), request.path());
        } catch (RuntimeException e) {
            respond(ctx, ErrorResponses.of(e), keepAlive, cors);
            return;
        }
        ctx.channel().config().setAutoRead(false);
        try {
            CompletableFuture.supplyAsync(() -> start(handler, request), workers)
                    .thenCompose(f -> f)
                    .whenComplete((response, failure) ->
                            respond(ctx, failure == null ? response : ErrorResponses.of(failure), keepAlive, cors));
        } catch (RejectedExecutionException busy) {
            respond(ctx, ErrorResponses.of(busy), keepAlive, cors);
        }
    }

    private static CompletableFuture<Response> start(Handler handler, Request request) {
        try {
            return handler.handle(request);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void respond(ChannelHandlerContext ctx, Response response, boolean keepAlive, String cors) {
        Responses.send(ctx.channel(), response, keepAlive, cors).addListener(f -> {
            if (keepAlive && f.isSuccess() && ctx.channel().isActive()) {
                ctx.pipeline().fireUserEventTriggered(RequestDeadline.READY_FOR_NEXT);
                ctx.channel().config().setAutoRead(true);
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
