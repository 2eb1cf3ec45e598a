package io.heaptap.http.server;

import io.heaptap.http.route.Router;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pipeline of every connection: the request deadline (on the raw bytes), HTTP codec with
 * bounded request line and headers, the body aggregated up to a limit, and the dispatcher (which
 * answers pipelined requests in order). Connections beyond a fixed
 * number are closed at once, so a flood of idle sockets cannot pile up in the target.
 */
final class ChannelSetup extends ChannelInitializer<SocketChannel> {
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_INITIAL_LINE = 4096;
    static final int MAX_HEADERS = 8192;
    static final int MAX_BODY = 64 * 1024;
    static final long REQUEST_DEADLINE_MILLIS = 10_000;

    private final Router router;
    private final AccessCheck access;
    private final Executor workers;
    private final AtomicInteger open = new AtomicInteger();

    ChannelSetup(Router router, AccessCheck access, Executor workers) {
        this.router = router;
        this.access = access;
        this.workers = workers;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        if (open.incrementAndGet() > MAX_CONNECTIONS) {
            open.decrementAndGet();
            ch.close();
            return;
        }
        ch.closeFuture().addListener(f -> open.decrementAndGet());
        ch.pipeline()
                .addLast(new RequestDeadline(REQUEST_DEADLINE_MILLIS))
                .addLast(new HttpServerCodec(new HttpDecoderConfig()
                        .setMaxInitialLineLength(MAX_INITIAL_LINE)
                        .setMaxHeaderSize(MAX_HEADERS)
                        .setMaxChunkSize(8192)))
                .addLast(new LimitedAggregator(MAX_BODY))
                .addLast(new Dispatcher(router, access, workers));
    }
}
