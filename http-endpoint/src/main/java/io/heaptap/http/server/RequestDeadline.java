package io.heaptap.http.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A connection must deliver a whole request within a fixed time of becoming ready for one (opened,
 * or the previous response sent): a short time until it has shown the credential once (see
 * {@link ConnectionSlots}), the ordinary one after. An idle read timeout would not do: a client sending one byte a
 * second never goes idle. When the time is up with part of a request received, the connection gets
 * a 408 and is closed; with nothing received it is closed quietly, as an idle keep-alive connection
 * is: a 408 nobody asked for would be read by a client as the answer to its next request.
 *
 * <p>First in the pipeline, it sees the raw bytes; the dispatcher tells it when a request is whole
 * ({@link #REQUEST_RECEIVED}) and when the connection is ready for the next ({@link #READY_FOR_NEXT}).
 */
final class RequestDeadline extends ChannelDuplexHandler {
    /** Fired by the dispatcher when a response has been written and the connection stays open. */
    static final Object READY_FOR_NEXT = new Object();
    /** Fired by the dispatcher when a whole request has arrived. */
    static final Object REQUEST_RECEIVED = new Object();

    private final long unprovenMillis;
    private final long millis;
    private ScheduledFuture<?> timeout;
    private boolean bytesSinceReady;

    RequestDeadline(long unprovenMillis, long millis) {
        this.unprovenMillis = unprovenMillis;
        this.millis = millis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf b && b.isReadable()) {
            bytesSinceReady = true;
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == READY_FOR_NEXT) {
            arm(ctx);
        } else if (evt == REQUEST_RECEIVED) {
            disarm();
        } else {
            super.userEventTriggered(ctx, evt);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        disarm();
        super.channelInactive(ctx);
    }

    private void arm(ChannelHandlerContext ctx) {
        disarm();
        bytesSinceReady = false;
        long ms = ConnectionSlots.isProven(ctx.channel()) ? millis : unprovenMillis;
        timeout = ctx.executor().schedule(() -> {
            if (bytesSinceReady) {
                Responses.sendAndClose(ctx.channel(), 408, "no complete request within " + ms + " ms");
            } else {
                ctx.close();
            }
        }, ms, TimeUnit.MILLISECONDS);
    }

    private void disarm() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }
}
