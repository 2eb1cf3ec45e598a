package io.heaptap.http.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpContentException;

/**
 * Netty's aggregator, but a body over the limit is not answered here, out of turn: it goes on as a
 * failed request, so the dispatcher answers it (413, then close) after the requests pipelined before it.
 * An {@code Expect} other than {@code 100-continue} is answered 417 and the connection closed at once:
 * kept open, it waited for a body the client would never send until the request deadline.
 */
final class LimitedAggregator extends HttpObjectAggregator {
    private final int maxBytes;

    LimitedAggregator(int maxBytes) {
        super(maxBytes, true);
        this.maxBytes = maxBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        HttpRequest r = oversized instanceof HttpRequest request ? request : null;
        FullHttpRequest failed = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, r == null ? HttpMethod.POST : r.method(),
                r == null ? "/" : r.uri());
        failed.setDecoderResult(DecoderResult.failure(new TooLongHttpContentException(
                "the request body is larger than the limit of " + maxBytes + " bytes")));
        ctx.fireChannelRead(failed);
    }
}
