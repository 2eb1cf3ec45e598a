package io.heaptap.http.server;

import io.heaptap.http.route.Router;
import io.heaptap.session.HeapBudget;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.WriteTimeoutHandler;

import java.util.concurrent.Executor;

/**
 * The pipeline of every connection: the request deadline (on the raw bytes), the write timeout, HTTP
 * codec with bounded request line and headers, answers written in chunks as the client reads, the
 * body aggregated up to a limit, and the dispatcher (which answers pipelined requests in order).
 * Connections take one of a fixed number of slots ({@link ConnectionSlots}), so neither a flood of
 * idle sockets nor partial requests from someone without the token can pile up in the target or
 * shut the token holder out.
 *
 * <p>What a connection holds in native memory is bounded too: the server's write buffer water mark
 * ({@link RunningServer}) makes a connection unwritable past {@value RunningServer#HIGH_WATER_MARK}
 * bytes queued, answers are then produced no further, and a write that makes no progress for
 * {@value #WRITE_TIMEOUT_SECONDS} s (a client that does not read) closes the connection, which frees
 * what it held.
 */
final class ChannelSetup extends ChannelInitializer<SocketChannel> {
    static final int MAX_INITIAL_LINE = 4096;
    static final int MAX_HEADERS = 8192;
    static final int MAX_BODY = 64 * 1024;
    static final long REQUEST_DEADLINE_MILLIS = 10_000;
    /**
     * A whole first request, until a connection has shown the credential: loopback delivers one in
     * milliseconds, and a client taking longer holds a slot it has not shown a right to.
     */
    static final long UNPROVEN_DEADLINE_MILLIS = 1_000;
    static final int WRITE_TIMEOUT_SECONDS = 20;

    private final Router router;
    private final AccessCheck access;
    private final Executor workers;
    private final HeapBudget budget;
    private final ConnectionSlots slots = new ConnectionSlots();

    ChannelSetup(Router router, AccessCheck access, Executor workers, HeapBudget budget) {
        this.router = router;
        this.access = access;
        this.workers = workers;
        this.budget = budget;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        if (!slots.admit(ch)) {
            ch.close();
            return;
        }
        ch.pipeline()
                .addLast(new RequestDeadline(UNPROVEN_DEADLINE_MILLIS, REQUEST_DEADLINE_MILLIS))
                .addLast(new WriteTimeoutHandler(WRITE_TIMEOUT_SECONDS))
                .addLast(new HttpServerCodec(new HttpDecoderConfig()
                        .setMaxInitialLineLength(MAX_INITIAL_LINE)
                        .setMaxHeaderSize(MAX_HEADERS)
                        .setMaxChunkSize(8192)))
                .addLast(new ChunkedWriteHandler())
                .addLast(new LimitedAggregator(MAX_BODY))
                .addLast(new Dispatcher(router, access, workers, slots, budget));
    }
}
