package io.heaptap.http.server;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A connection must deliver a whole request within a fixed time of becoming ready for one (opened,
 * or the previous response sent). An idle read timeout would not do: a client sending one byte a
 * second never goes idle. When the time is up the connection gets a 408 and is closed.
 */
final class RequestDeadline extends ChannelDuplexHandler {
    /** Fired by the dispatcher when a response has been written and the connection stays open. */
    static final Object READY_FOR_NEXT = new Object();

    private final long millis;
    private ScheduledFuture<?> timeout;

    RequestDeadline(long millis) {
        this.millis = millis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof FullHttpRequest) {
            disarm();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == READY_FOR_NEXT) {
            arm(ctx);
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
        timeout = ctx.executor().schedule(() -> Responses.sendAndClose(ctx.channel(), 408,
                "no complete request within " + millis + " ms"), millis, TimeUnit.MILLISECONDS);
    }

    private void disarm() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }
}
