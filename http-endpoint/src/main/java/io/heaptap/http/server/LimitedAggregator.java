package io.heaptap.http.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;

/** Netty's aggregator with heaptap's answer to a body over the limit: a JSON 413, then close. */
final class LimitedAggregator extends HttpObjectAggregator {
    private final int maxBytes;

    LimitedAggregator(int maxBytes) {
        super(maxBytes);
        this.maxBytes = maxBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        Responses.sendAndClose(ctx.channel(), 413, "the request body is larger than the limit of " + maxBytes + " bytes");
    }
}
